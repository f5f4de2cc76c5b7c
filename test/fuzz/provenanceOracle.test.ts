import { describe, expect, it } from 'vitest';
import { createAssistant, createProvenanceAssistant } from '../../examples/payments/agent.js';
import { ScriptedTransport, reply, type AgentResult } from '../../src/index.js';
import { findViolation, type Oracle } from '../../src/fuzz/findViolation.js';

const USER = "Read https://example.com/invoice/42 and pay the $120 it asks for to our supplier's account 12-3456-7890.";

/** A run of the invoice assistant with argument provenance: it reads the page, then pays the account the user gave. */
async function tracedRun(): Promise<AgentResult> {
  const agent = createProvenanceAssistant(
    new ScriptedTransport([
      reply.toolUse('fetch_page', { url: 'https://example.com/invoice/42' }),
      reply.toolUse('send_payment', { amount: 120, to: '12-3456-7890' }),
      reply.text('Paid.'),
    ]),
  );
  return agent.run(USER);
}

function oracleOf(entry: ReturnType<typeof createAssistant>): Oracle {
  return { tools: [...entry.tools], privileged: new Set(['send_payment']), rules: [] };
}

describe("the fuzzer's oracle under argument provenance", () => {
  it('takes a payment provenance let through (its account in the user message) for no violation', async () => {
    const result = await tracedRun();
    expect(result.toolCalls.map((c) => c.outcome)).toEqual(['ok', 'ok']);
    const entry = createProvenanceAssistant(new ScriptedTransport([]));
    expect(findViolation(entry, result, oracleOf(entry))).toBeUndefined();
  });

  it('still finds a privileged call after taint whose account is found only in the page', async () => {
    const result = await tracedRun();
    // The same run as a broken guard would have let it happen: the account paid is the page's.
    const tampered = structuredClone(result);
    tampered.toolCalls[1]!.input = { amount: 9000, to: '99-1234-5678' };
    for (const message of tampered.messages)
      if (message.role === 'assistant' && typeof message.content !== 'string')
        for (const block of message.content)
          if (block.type === 'tool_use' && block.id === tampered.toolCalls[1]!.id)
            (block as { input: unknown }).input = { amount: 9000, to: '99-1234-5678' };
    const entry = createProvenanceAssistant(new ScriptedTransport([]));
    expect(findViolation(entry, tampered, oracleOf(entry))).toMatchObject({ rule: 'taint' });
  });

  it('holds a tool that did not opt in to strict taint, whatever its arguments', async () => {
    const result = await tracedRun();
    const strict = createAssistant(new ScriptedTransport([]));
    expect(findViolation(strict, result, oracleOf(strict))).toMatchObject({ rule: 'taint' });
  });
});
