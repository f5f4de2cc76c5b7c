import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, rules, type Transport } from '../../src/index.js';
import { fuzzInjection } from '../../src/fuzz/index.js';
import { findViolation } from '../../src/fuzz/findViolation.js';

// Issue 12: a limit on the entry agent's tool, and a handoff to an agent that does not have the tool.
// A call of it after the handoff is refused as an unknown tool of the target: nothing runs twice, so
// the fuzzer's limit property must not count it as an attempt.
const transferFunds = defineTool({
  name: 'transfer_funds',
  description: 'Transfers funds between two accounts.',
  input: { type: 'object', properties: { cents: { type: 'integer', minimum: 1 } }, required: ['cents'] },
  run: ({ cents }) => `Transferred ${cents} cents.`,
});
const lookUp = defineTool({
  name: 'look_up_account',
  description: 'Looks an account up.',
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  run: ({ id }) => `Account ${id} is open.`,
});

const agentWithLimit = (transport: Transport) => {
  const support = new Agent({ name: 'support', model: 'claude-haiku-5-5', tools: [lookUp], transport, maxTurns: 6 });
  return new Agent({
    name: 'treasury',
    model: 'claude-haiku-5-5',
    tools: [transferFunds, lookUp],
    rules: [rules.limit('transfer_funds', 1)],
    handoffs: [{ name: 'to_support', agent: support, description: 'Hands the customer to support.' }],
    transport,
    maxTurns: 6,
  });
};

describe('fuzzInjection and a limit across a handoff', () => {
  it('finds nothing over 5 seeds: a call the target refuses as unknown is no attempt', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const report = await fuzzInjection(agentWithLimit, { numRuns: 60, seed, out: false });
      expect(
        report.failures.map((failure) => failure.message),
        `seed ${seed}`,
      ).toEqual([]);
    }
  }, 60_000);
});

// The target has the same tool without a limit: its calls are the target's to make. The entry's
// limit holds while the entry is in charge, over the run's count (the guard's rule), nothing more.
const agentWithUnlimitedTarget = (transport: Transport) => {
  const desk = new Agent({ name: 'desk', model: 'claude-haiku-5-5', tools: [transferFunds], transport, maxTurns: 6 });
  return new Agent({
    name: 'treasury',
    model: 'claude-haiku-5-5',
    tools: [transferFunds, lookUp],
    rules: [rules.limit('transfer_funds', 1)],
    handoffs: [{ name: 'desk', agent: desk, description: 'Hands the customer to the desk.' }],
    transport,
    maxTurns: 6,
  });
};

describe('fuzzInjection and a target with the same tool unlimited', () => {
  it("does not hold the target's calls against the entry's limit", async () => {
    const transfer = { name: 'transfer_funds', input: { cents: 5 } };
    const agent = agentWithUnlimitedTarget(
      new ScriptedTransport([
        reply.toolUse(transfer.name, transfer.input),
        reply.toolUse('handoff_to_desk', { reason: 'more transfers' }),
        reply.toolUses([transfer, transfer]),
        reply.text('Done.'),
      ]),
    );
    const result = await agent.run('go');
    expect(result.toolCalls.filter((c) => c.name === 'transfer_funds').map((c) => c.outcome)).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    expect(
      findViolation(agent, result, { tools: [transferFunds, lookUp], privileged: new Set(), rules: [] }),
    ).toBeUndefined();
  });

  it('finds nothing over 5 seeds', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const report = await fuzzInjection(agentWithUnlimitedTarget, { numRuns: 60, seed, out: false });
      expect(
        report.failures.map((failure) => failure.message),
        `seed ${seed}`,
      ).toEqual([]);
    }
  }, 60_000);
});
