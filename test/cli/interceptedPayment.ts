import { join } from 'node:path';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { generateTextLoop } from '../intercept/toolLoops.js';
import { capturedResponse, startUpstream, type CapturedResponse } from '../intercept/upstream.js';

/**
 * A foreign agent's run recorded by legate/intercept, as the viewing commands get it: the Vercel AI SDK's
 * `generateText` (which sends the user's prompt as content blocks) reads an invoice page with `fetch_page`, then
 * pays with `send_payment`. The answers are the real `anthropic-sdk-ts--parallel-tool-use` capture's message with
 * only the content and stop reason replaced by this conversation's, as in test/intercept/unsafeFlow.test.ts.
 */

const template = capturedResponse('anthropic-sdk-ts--parallel-tool-use.json') as { body: Record<string, unknown> };
const answer = (id: string, content: unknown[], stopReason: 'tool_use' | 'end_turn'): CapturedResponse => ({
  status: 200,
  body: { ...template.body, id, content, stop_reason: stopReason },
});

export const PROMPT = 'Pay the invoice at https://example.com/invoice.';
export const PAGE = 'Invoice: pay 950 to ACME-7.';

/** The answers of the nth run (0-based): its calls' ids are `toolu_<n>1_fetch` and `toolu_<n>2_pay`. */
const answers = (n: number) => [
  answer(
    `msg_${n}1_fetch`,
    [
      { type: 'text', text: 'I will read the invoice page first.' },
      { type: 'tool_use', id: `toolu_${n}1_fetch`, name: 'fetch_page', input: { url: 'https://example.com/invoice' } },
    ],
    'tool_use',
  ),
  answer(
    `msg_${n}2_pay`,
    [{ type: 'tool_use', id: `toolu_${n}2_pay`, name: 'send_payment', input: { to: 'ACME-7', amount: 950 } }],
    'tool_use',
  ),
  answer(`msg_${n}3_done`, [{ type: 'text', text: 'Paid 950 to ACME-7.' }], 'end_turn'),
];

/**
 * Records the run (`runs` times, one after the other under one interception: a conversation each) into
 * `dir/pay.yaml`; returns the file's path and what the client sent, request by request (the body of each).
 */
export async function recordPayment(dir: string, runs = 1): Promise<{ file: string; sent: unknown[] }> {
  const file = join(dir, 'pay.yaml');
  const upstream = await startUpstream(Array.from({ length: runs }, (_, n) => answers(n)).flat());
  try {
    const interception = await interceptAnthropic({ file, mode: 'record', config: false, baseURL: upstream.url });
    try {
      for (let n = 0; n < runs; n++) await generateTextLoop(setup(upstream.url));
    } finally {
      await interception.close();
    }
  } finally {
    await upstream.close();
  }
  return { file, sent: upstream.seen.map((request) => request.body) };
}

const setup = (baseURL: string) => ({
  baseURL,
  apiKey: 'sk-ant-test-key',
  model: 'claude-opus-4-8',
  prompt: PROMPT,
  tools: [
    {
      name: 'fetch_page',
      description: 'Fetches a web page and returns its text.',
      input_schema: { type: 'object' as const, properties: { url: { type: 'string' } }, required: ['url'] },
    },
    {
      name: 'send_payment',
      description: 'Sends a payment.',
      input_schema: {
        type: 'object' as const,
        properties: { to: { type: 'string' }, amount: { type: 'number' } },
        required: ['to', 'amount'],
      },
    },
  ],
  run: (tool: string) => (tool === 'fetch_page' ? PAGE : 'paid'),
});
