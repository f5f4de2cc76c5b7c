/**
 * Provenance over a recording made at the HTTP boundary: a raw-SDK agent (no legate runtime) runs
 * twice under one interception, so the file holds two conversations. In the first, the system
 * prompt the client sent names the payee; in the second, only the fetched page does. Audited with
 * `send_payment`'s `to` sensitive, the first is clean and the second is flagged, its payee untraced.
 *
 * The responses are the real `anthropic-sdk-ts--parallel-tool-use` capture's message with only the
 * content and stop reason replaced by this conversation's, as in unsafeFlow.test.ts.
 */
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { auditTrajectory } from '../../src/index.js';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';
import { capturedResponse, startUpstream, type CapturedResponse } from './upstream.js';

const tempDir = useTempDir();
const template = capturedResponse('anthropic-sdk-ts--parallel-tool-use.json') as { body: Record<string, unknown> };
const answer = (id: string, content: unknown[], stopReason: 'tool_use' | 'end_turn'): CapturedResponse => ({
  status: 200,
  body: { ...template.body, id, content, stop_reason: stopReason },
});
const conversation = (n: number) => [
  answer(
    `msg_${n}1`,
    [{ type: 'tool_use', id: `toolu_${n}1`, name: 'fetch_page', input: { url: 'https://example.com/invoice' } }],
    'tool_use',
  ),
  answer(
    `msg_${n}2`,
    [{ type: 'tool_use', id: `toolu_${n}2`, name: 'send_payment', input: { to: 'ACME-7', amount: 950 } }],
    'tool_use',
  ),
  answer(`msg_${n}3`, [{ type: 'text', text: 'Paid 950 to ACME-7.' }], 'end_turn'),
];
const tools: Anthropic.Tool[] = [
  { name: 'fetch_page', description: 'Fetches a page.', input_schema: { type: 'object', properties: {} } },
  {
    name: 'send_payment',
    description: 'Pays.',
    input_schema: { type: 'object', properties: { to: { type: 'string' }, amount: { type: 'number' } } },
  },
];

/** A raw tool loop over the SDK with a system prompt (or none). */
async function payLoop(baseURL: string, system: string | undefined): Promise<void> {
  const client = new Anthropic({ apiKey: 'sk-ant-test-key', baseURL, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [
    { role: 'user', content: 'Pay the invoice at https://example.com/invoice.' },
  ];
  for (;;) {
    const response = await client.messages.create({
      model: 'claude-opus-4-8',
      max_tokens: 1024,
      tools,
      messages,
      ...(system === undefined ? {} : { system }),
    });
    messages.push({ role: 'assistant', content: response.content });
    const uses = response.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) return;
    messages.push({
      role: 'user',
      content: uses.map((use) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: use.name === 'fetch_page' ? 'Invoice: pay 950 to ACME-7.' : 'paid',
      })),
    });
  }
}

describe('provenance in the audit of a file recorded at the HTTP boundary', () => {
  it('traces each conversation with the system prompt its client sent: one naming the payee is clean', async () => {
    const dir = tempDir();
    const file = join(dir, 'pay.yaml');
    const upstream = await startUpstream([...conversation(1), ...conversation(2)]);
    try {
      const interception = await interceptAnthropic({ file, mode: 'record', config: false, baseURL: upstream.url });
      try {
        await payLoop(upstream.url, 'Invoices from our supplier are paid to account ACME-7.');
        await payLoop(upstream.url, undefined);
      } finally {
        await interception.close();
      }
    } finally {
      await upstream.close();
    }
    const trajectory = loadTrajectory(file);
    const declared = { untrusted: ['fetch_page'], privileged: ['send_payment'] };
    expect(auditTrajectory(trajectory, declared).findings.map((f) => [f.call.conversation, f.call.id])).toEqual([
      [1, 'toolu_12'],
      [2, 'toolu_22'],
    ]);
    const report = auditTrajectory(trajectory, { ...declared, sensitive: { send_payment: ['to'] } });
    expect(report.findings.map((f) => [f.call.conversation, f.call.id, f.untraced])).toEqual([
      [2, 'toolu_22', { argument: 'to', value: 'ACME-7', foundIn: ['fetch_page'] }],
    ]);

    const io = captureIo(dir);
    const flags = ['--untrusted', 'fetch_page', '--privileged', 'send_payment', '--sensitive', 'send_payment:to'];
    expect(await main(['audit', 'pay.yaml', ...flags], io)).toBe(1);
    expect(io.stdout.join('\n')).toContain(
      "'send_payment' (toolu_22, conversation 2, turn 2) ran after the result of 'fetch_page' (toolu_21, " +
        'conversation 2, turn 1), which is untrusted, entered the conversation: the guard would have blocked it ' +
        `(taint), as its argument 'to' ("ACME-7") was not traced`,
    );
  });
});
