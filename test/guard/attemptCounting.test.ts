// What counts as an attempt towards a limit (issue 12): a call the guard let through to a tool the
// agent in charge has. A call refused as an unknown tool (made after a handoff to an agent without
// that tool) reached no tool and had no effect, so it uses up nothing.
import { describe, expect, it, vi } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, rules, type AnyTool, type Rule } from '../../src/index.js';
import { applyOutcomes } from '../../src/guard/applyOutcomes.js';
import { compileRules, type ToolFacts } from '../../src/guard/guardContext.js';
import { initialGuardState } from '../../src/guard/guardState.js';

const model = 'claude-haiku-5-5';

function spyTool(name: string) {
  const run = vi.fn(() => `${name} done`);
  return { tool: defineTool({ name, description: `${name}.`, input: { type: 'object', properties: {} }, run }), run };
}

const facts = (...names: string[]) =>
  new Map(names.map((name): [string, ToolFacts] => [name, { untrusted: false, privileged: false, policy: undefined }]));

/** An entry agent `treasury` that can hand off to `support`; each with its own tools and rules. */
function handoffPair(
  treasury: { tools: AnyTool[]; rules?: Rule[] },
  support: { tools: AnyTool[]; rules?: Rule[] },
  script: ReturnType<typeof reply.toolUse>[],
) {
  const transport = new ScriptedTransport([...script, reply.text('Done.')]);
  const target = new Agent({ name: 'support', model, transport, tools: support.tools, rules: support.rules ?? [] });
  return new Agent({
    name: 'treasury',
    model,
    transport,
    tools: treasury.tools,
    rules: treasury.rules ?? [],
    handoffs: [{ name: 'support', agent: target, description: 'Hands over to support.' }],
  });
}

describe('attempts towards a limit', () => {
  it('a call refused as an unknown tool of the agent in charge is no attempt', async () => {
    const transfer = spyTool('transfer_funds');
    const lookUp = spyTool('look_up');
    const agent = handoffPair(
      { tools: [transfer.tool, lookUp.tool], rules: [rules.limit('transfer_funds', 1)] },
      { tools: [lookUp.tool] },
      [
        reply.toolUse('transfer_funds', {}),
        reply.toolUse('handoff_to_support', { reason: 'billing' }),
        reply.toolUse('transfer_funds', {}),
        reply.toolUse('transfer_funds', {}),
      ],
    );
    const result = await agent.run('go');
    expect(result.toolCalls.map((c) => `${c.name}:${c.outcome}:${c.error?.error ?? ''}`)).toEqual([
      'transfer_funds:ok:',
      'handoff_to_support:ok:',
      'transfer_funds:invalid:unknown_tool',
      'transfer_funds:invalid:unknown_tool',
    ]);
    expect(transfer.run).toHaveBeenCalledTimes(1);
    expect(result.guard.attempts).toEqual({ transfer_funds: 1, handoff_to_support: 1 });
  });

  it("counts by tool name over the run: a target's own limit sees calls made before the handoff", async () => {
    const transfer = spyTool('transfer_funds');
    const agent = handoffPair(
      { tools: [transfer.tool], rules: [rules.limit('transfer_funds', 2)] },
      { tools: [transfer.tool], rules: [rules.limit('transfer_funds', 1)] },
      [
        reply.toolUse('transfer_funds', {}),
        reply.toolUse('handoff_to_support', { reason: 'billing' }),
        reply.toolUse('transfer_funds', {}),
      ],
    );
    const result = await agent.run('go');
    expect(result.toolCalls.map((c) => `${c.name}:${c.outcome}:${c.rule ?? ''}`)).toEqual([
      'transfer_funds:ok:',
      'handoff_to_support:ok:',
      'transfer_funds:blocked:limit',
    ]);
    expect(transfer.run).toHaveBeenCalledTimes(1);
    expect(result.guard.attempts).toEqual({ transfer_funds: 1, handoff_to_support: 1 });
  });

  it('applyOutcomes counts an allowed call only when the agent in charge has a tool of its name', () => {
    const next = applyOutcomes(
      initialGuardState(),
      [
        { id: '1', name: 'a', allowed: true, succeeded: true },
        { id: '2', name: 'made_up', allowed: true, succeeded: false },
        { id: '3', name: 'a', allowed: true, succeeded: false },
      ],
      1,
      facts('a'),
      compileRules([]),
    );
    expect(next.attempts).toEqual({ a: 2 });
  });
});
