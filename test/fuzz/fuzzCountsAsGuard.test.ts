// Issue 12: the fuzzer's limit property counts exactly what the runtime's guard counts. For random
// runs (handoffs to agents with other tools, unknown names, hidden tools, bad arguments, failing
// tools, rules of every kind), the fuzzer's count per tool equals the guard's own record.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, rules, type AnyTool, type Rule } from '../../src/index.js';
import { countAttempts, findViolation } from '../../src/fuzz/findViolation.js';

const model = 'claude-haiku-5-5';
const NAMES = ['a', 'b', 'c'] as const;

const tool = (name: string, policy: string | undefined) =>
  defineTool({
    name,
    description: `Tool ${name}.`,
    input: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    ...(policy === undefined ? {} : { policy }),
    run: ({ n }) => {
      if (n < 0) throw new Error('negative');
      return `${name} ${n}`;
    },
  });

interface Side {
  tools: string[];
  hidden: string[];
  rules: Rule[];
}

const side = fc.subarray([...NAMES], { minLength: 1 }).chain((tools) =>
  fc.record({
    tools: fc.constant(tools),
    hidden: fc.subarray(tools, { maxLength: 1 }),
    rules: fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom(...tools), fc.integer({ min: 1, max: 3 })).map(([t, max]) => rules.limit(t, max)),
        fc.constantFrom(...tools).map((t) => rules.terminal(t)),
        fc.tuple(fc.constantFrom(...tools), fc.constantFrom(...tools)).map(([t, p]) => rules.require(t, p)),
      ),
      { maxLength: 3 },
    ),
  }),
);

const call = fc.oneof(
  fc.record({
    name: fc.constantFrom(...NAMES, 'made_up'),
    input: fc.oneof(
      fc.integer({ min: -1, max: 3 }).map((n) => ({ n })),
      fc.constant({ n: 'x' }),
    ),
  }),
  fc.constant({ name: 'handoff_to_support', input: { reason: 'over to you' } }),
);
const script = fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 });

function build(entry: Side, target: Side, steps: { name: string; input: unknown }[][]): Agent {
  const transport = new ScriptedTransport([...steps.map((batch) => reply.toolUses(batch)), reply.text('Done.')]);
  const toolsOf = (s: Side): AnyTool[] => s.tools.map((n) => tool(n, s.hidden.includes(n) ? 'admin' : undefined));
  const authorizer = (policy: string) => policy !== 'admin';
  const support = new Agent({
    name: 'support',
    model,
    transport,
    tools: toolsOf(target),
    rules: target.rules,
    authorizer,
    maxTurns: 10,
  });
  return new Agent({
    name: 'treasury',
    model,
    transport,
    tools: toolsOf(entry),
    rules: entry.rules,
    authorizer,
    handoffs: [{ name: 'support', agent: support, description: 'Hands over to support.' }],
    maxTurns: 10,
  });
}

describe("the fuzzer's count of attempts", () => {
  it("equals the guard's record, tool by tool, and finds no violation the guard let by, for random runs", async () => {
    await fc.assert(
      fc.asyncProperty(side, side, script, async (entry, target, steps) => {
        const agent = build(entry, target, steps);
        const result = await agent.run('go');
        const counted: Record<string, number> = {};
        for (const { call, count } of countAttempts(agent, result)) if (count > 0) counted[call.name] = count;
        expect(counted).toEqual({ ...result.guard.attempts });
        // The guard enforced every rule, so the fuzzer, reading the same run, finds nothing to report.
        const tools = [...NAMES].map((n) => tool(n, undefined));
        expect(findViolation(agent, result, { tools, privileged: new Set(), rules: [] })).toBeUndefined();
      }),
      { numRuns: 300, seed: 12 },
    );
  });

  it('counts no attempt for a call refused as an unknown tool after a handoff', async () => {
    const agent = build(
      { tools: ['a'], hidden: [], rules: [rules.limit('a', 1)] },
      { tools: ['b'], hidden: [], rules: [] },
      [
        [{ name: 'a', input: { n: 1 } }],
        [{ name: 'handoff_to_support', input: { reason: 'over to you' } }],
        [{ name: 'a', input: { n: 1 } }],
      ],
    );
    const result = await agent.run('go');
    expect(countAttempts(agent, result).map(({ call, attempt, count }) => [call.name, attempt, count])).toEqual([
      ['a', true, 1],
      ['handoff_to_support', true, 1],
      ['a', false, 1],
    ]);
    expect(result.guard.attempts).toEqual({ a: 1, handoff_to_support: 1 });
  });
});
