import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/intercept/exchange.js';
import { startRecordingProxy } from '../../src/intercept/index.js';
import type { MessagesRequest } from '../../src/messages/types.js';
import { useTempDir } from '../support/tempDir.js';
import { interleave, threaded, trafficOf, turnArb } from './generatedTraffic.js';

const tempDir = useTempDir();

/**
 * A request as a client like Claude Code sends it: the cache breakpoint on the last block of its newest message
 * (where `at` says, among that message's blocks) and a user id holding this run's random session id.
 */
function decorated(request: MessagesRequest, session: string, at: number): MessagesRequest {
  const messages = request.messages.map((message, i) => {
    // Every message as blocks, as such a client sends them, so a breakpoint has a block to sit on.
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (i !== request.messages.length - 1) return { ...message, content: blocks };
    const marked = at % blocks.length;
    return {
      ...message,
      content: blocks.map((block, b) => (b === marked ? { ...block, cache_control: { type: 'ephemeral' } } : block)),
    };
  });
  const userId = JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: session });
  return { ...request, messages, metadata: { user_id: userId } } as MessagesRequest;
}

/** Sends the requests to `url` one after another; the parsed body of each answer. */
async function sendAll(url: string, requests: MessagesRequest[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const request of requests) {
    const response = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'claude-cli/2.1.334 (external, sdk-ts)' },
      body: JSON.stringify(request),
    });
    answers.push(await response.json());
  }
  return answers;
}

/** An upstream answering the nth request with the nth exchange's response. */
async function upstreamOf(exchanges: readonly Exchange[]) {
  let n = 0;
  const server = createServer((request, reply) => {
    request.resume().on('end', () => {
      reply.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(exchanges[n++]!.response));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('conversations through the recording proxy', () => {
  it('each replayed request gets its own recorded response, in any interleaving, breakpoint and session', async () => {
    const conversation = fc.record({ turns: fc.array(turnArb, { maxLength: 3 }), threaded: fc.boolean() });
    const picks = fc.array(fc.nat(5), { maxLength: 12 });
    const phase = fc.record({ order: picks, session: fc.uuid(), marks: fc.array(fc.nat(3), { maxLength: 12 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(conversation, { minLength: 1, maxLength: 3 }),
        phase,
        phase,
        async (specs, rec, rep) => {
          const conversations = specs.map((spec, i) => {
            const traffic = trafficOf(`Conversation ${i}: go.`, spec.turns, `c${i}_`);
            return spec.threaded ? threaded(traffic) : traffic;
          });
          const send = (exchanges: Exchange[], { session, marks }: typeof rec) =>
            exchanges.map((exchange, i) => decorated(exchange.request, session, marks[i] ?? i));
          const file = join(tempDir(), 'run.yaml');

          const recorded = interleave(conversations, rec.order);
          const upstream = await upstreamOf(recorded);
          const recording = await startRecordingProxy({ file, mode: 'record', upstream: upstream.url, config: false });
          const answers = await sendAll(recording.url, send(recorded, rec)).finally(upstream.close);
          await recording.close();
          expect(answers).toEqual(recorded.map((exchange) => exchange.response));

          const asked = interleave(conversations, rep.order);
          const replay = await startRecordingProxy({ file, mode: 'replay', config: false });
          const served = await sendAll(replay.url, send(asked, rep));
          await replay.close();
          expect(served).toEqual(asked.map((exchange) => exchange.response));
        },
      ),
      { numRuns: 30 },
    );
  }, 240_000);
});
