/**
 * The acceptance for foreign agents: an agent written on the raw SDK (no legate runtime)
 * reads an untrusted page and then calls a privileged tool. legate/intercept records it at the HTTP
 * boundary; the audit finds the flow, in a test (toHaveNoUnsafeFlow) and on the command line
 * (legate audit), naming both calls and the taint source.
 *
 * The responses are the real `anthropic-sdk-ts--parallel-tool-use` capture's message (its fields,
 * usage and ids as recorded by the SDK's own ToolRunner tests), with only the tool calls and text
 * replaced by this conversation's: what the model asked for is ours, every field name is the API's.
 */
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { main } from '../../cli/main.js';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { captureIo } from '../support/captureIo.js';
import { failureMessage } from '../support/caught.js';
import { useTempDir } from '../support/tempDir.js';
import { capturedResponse, startUpstream, type CapturedResponse } from './upstream.js';
import { createLoop } from './toolLoops.js';

const tempDir = useTempDir();
const template = capturedResponse('anthropic-sdk-ts--parallel-tool-use.json') as {
  status: number;
  body: Record<string, unknown>;
};

/** The captured message with this conversation's content and stop reason in place of its own. */
function answer(id: string, content: unknown[], stopReason: 'tool_use' | 'end_turn'): CapturedResponse {
  return { status: 200, body: { ...template.body, id, content, stop_reason: stopReason } };
}

const responses = [
  answer(
    'msg_01_fetch',
    [
      { type: 'text', text: 'I will read the invoice page first.' },
      { type: 'tool_use', id: 'toolu_01_fetch', name: 'fetch_page', input: { url: 'https://example.com/invoice' } },
    ],
    'tool_use',
  ),
  answer(
    'msg_02_pay',
    [{ type: 'tool_use', id: 'toolu_02_pay', name: 'send_payment', input: { to: 'ACME-7', amount: 950 } }],
    'tool_use',
  ),
  answer('msg_03_done', [{ type: 'text', text: 'Paid 950 to ACME-7.' }], 'end_turn'),
];

const tools: Anthropic.Tool[] = [
  {
    name: 'fetch_page',
    description: 'Fetches a web page and returns its text.',
    input_schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  },
  {
    name: 'send_payment',
    description: 'Sends a payment.',
    input_schema: {
      type: 'object',
      properties: { to: { type: 'string' }, amount: { type: 'number' } },
      required: ['to', 'amount'],
    },
  },
];

const declared = { untrusted: ['fetch_page'], privileged: ['send_payment'] };

describe('a raw-SDK agent recorded through legate/intercept, audited', () => {
  it('fails toHaveNoUnsafeFlow and legate audit, naming both calls and the source', async () => {
    const dir = tempDir();
    const file = join(dir, 'pay.yaml');
    const upstream = await startUpstream(responses);
    try {
      const interception = await interceptAnthropic({ file, mode: 'record', config: false, baseURL: upstream.url });
      try {
        const outcome = await createLoop({
          baseURL: upstream.url,
          apiKey: 'sk-ant-test-key',
          model: 'claude-opus-4-8',
          prompt: 'Pay the invoice at https://example.com/invoice.',
          tools,
          run: (name) => (name === 'fetch_page' ? 'Invoice: pay 950 to ACME-7.' : 'paid'),
        });
        expect(outcome.calls.map((call) => call.name)).toEqual(['fetch_page', 'send_payment']);
      } finally {
        await interception.close();
      }
    } finally {
      await upstream.close();
    }

    const trajectory = loadTrajectory(file);
    const message = failureMessage(() => expect(trajectory).toHaveNoUnsafeFlow(declared));
    const finding =
      "'send_payment' (toolu_02_pay, turn 2) ran after the result of 'fetch_page' (toolu_01_fetch, turn 1), " +
      'which is untrusted, entered the conversation: the guard would have blocked it (taint).';
    expect(message).toContain(finding);

    const io = captureIo(dir);
    const code = await main(['audit', 'pay.yaml', '--untrusted', 'fetch_page', '--privileged', 'send_payment'], io);
    expect(code).toBe(1);
    expect(io.stdout.join('\n')).toContain(finding);
  });
});
