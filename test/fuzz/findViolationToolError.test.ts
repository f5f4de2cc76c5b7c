import { describe, expect, it } from 'vitest';
import { findViolation } from '../../src/fuzz/findViolation.js';
import { Agent, ScriptedTransport, defineTool, reply } from '../../src/index.js';
import { injectedErrorPage } from '../support/injectedErrorPage.js';

const noInput = { type: 'object', properties: {} } as const;

describe("the fuzzers' oracle and an untrusted tool's error result", () => {
  it('counts a privileged call after it as a taint violation, as the guard does', async () => {
    const fetchPage = injectedErrorPage();
    const pay = defineTool({ name: 'pay', description: 'Pays.', input: noInput, privileged: true, run: () => 'paid' });
    const agent = new Agent({
      name: 'desk',
      model: 'm',
      tools: [fetchPage, pay],
      transport: new ScriptedTransport([
        reply.toolUse('fetch_page', {}, { id: 'toolu_f' }),
        reply.toolUse('pay', {}, { id: 'toolu_p' }),
        reply.text('Done.'),
      ]),
    });
    const result = await agent.run('Pay.');
    const oracle = { tools: [fetchPage, pay], privileged: new Set(['pay']), rules: [] };
    expect(result.toolCalls.map((c) => c.outcome)).toEqual(['error', 'blocked']);
    expect(findViolation(agent, result, oracle)).toBeUndefined();
    // The same run had the guard let the payment through: the oracle must see it.
    const broken = {
      ...result,
      toolCalls: [result.toolCalls[0]!, { ...result.toolCalls[1]!, outcome: 'ok' as const }],
    };
    expect(findViolation(agent, broken, oracle)).toMatchObject({ rule: 'taint', call: { id: 'toolu_p' } });
  });
});
