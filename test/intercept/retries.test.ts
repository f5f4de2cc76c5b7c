import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/recording/trajectoryFile.js';
import { useTempDir } from '../support/tempDir.js';
import { capturedResponse, type CapturedResponse } from './upstream.js';

const API_KEY = `sk-ant-api03-${'R3'.repeat(40)}-AA`;
/** The client's timeout per attempt: a stalled request fails fast instead of after the SDK's 10 minutes. */
const CLIENT_TIMEOUT_MS = 5_000;
/**
 * A hang guard, not a speed check: an ask that has not settled by then is stuck (a retry that never
 * starts is not covered by the client's timeout), and the interception must still be closed.
 */
const HANG_GUARD_MS = 12_000;
const tempDir = useTempDir();

/** One scripted answer: a captured response, with any headers the capture did not keep. */
interface Scripted {
  response: CapturedResponse;
  headers?: OutgoingHttpHeaders;
}

/** A stand-in API that answers the nth POST with the nth scripted answer, and counts the requests. */
async function startScripted(answers: readonly Scripted[]) {
  let count = 0;
  const server = createServer((request, reply) => {
    request.resume();
    request.on('end', () => {
      const answer = answers[count++];
      if (answer === undefined) {
        reply.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        reply.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'no answer scripted' } }));
        return;
      }
      const { response, headers = {} } = answer;
      const sse = 'sse' in response;
      reply.writeHead(response.status, { 'content-type': sse ? 'text/event-stream' : 'application/json', ...headers });
      reply.end(sse ? response.sse : JSON.stringify(response.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const failures = {
  '529 overloaded_error': { response: capturedResponse('issue--error-529-overloaded.json') },
  '429 rate_limit_error with retry-after 0': {
    response: capturedResponse('issue--error-429-rate-limit.json'),
    headers: { 'retry-after': '0', 'retry-after-ms': '1' },
  },
  '500 api_error': { response: capturedResponse('issue--error-500-api-error-overloaded-null-request-id.json') },
} satisfies Record<string, Scripted>;

const asks = {
  'client.messages.create': {
    capture: 'pydantic-ai--text-plain.json',
    ask: (client: Anthropic, params: Anthropic.MessageCreateParamsNonStreaming) => client.messages.create(params),
  },
  'client.messages.stream': {
    capture: 'anthropic-sdk-ts--text.sse.json',
    ask: (client: Anthropic, params: Anthropic.MessageCreateParamsNonStreaming) =>
      client.messages.stream(params).finalMessage(),
  },
};

const params: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-opus-4-8',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Say hello.' }],
};

function textOf(message: Anthropic.Message): string {
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/** Asks once under interception in the given mode, with the SDK's default retries; returns the answer's text. */
async function askIntercepted(
  file: string,
  mode: 'record' | 'replay',
  baseURL: string,
  ask: (client: Anthropic, params: Anthropic.MessageCreateParamsNonStreaming) => Promise<Anthropic.Message>,
): Promise<string> {
  const interception = await interceptAnthropic({ file, mode, config: false, baseURL });
  let text: string;
  try {
    // maxRetries is left at the SDK's default (2): the retry is what is under test.
    const client = new Anthropic({ apiKey: API_KEY, baseURL, timeout: CLIENT_TIMEOUT_MS });
    text = textOf(await settledWithin(ask(client, params), HANG_GUARD_MS));
  } catch (error) {
    // Closed all the same (an interception left open would intercept the next test), but the ask's failure is the news.
    await interception.close().catch(() => {});
    throw error;
  }
  await interception.close();
  return text;
}

/** The promise's outcome, or a rejection when it has not settled after `ms` (it hangs). */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms: it hangs`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

describe.each(Object.entries(asks))('recording %s through a retried failure', (_, { capture, ask }) => {
  it.each(Object.entries(failures))(
    'retries after a %s, records only the success, and replays it',
    async (_, failure) => {
      const upstream = await startScripted([failure, { response: capturedResponse(capture) }]);
      const file = join(tempDir(), 'retried.yaml');
      let recorded: string;
      try {
        recorded = await askIntercepted(file, 'record', upstream.url, ask);
        expect(upstream.requests()).toBe(2);
      } finally {
        await upstream.close();
      }
      expect(recorded).not.toBe('');

      const trajectory = loadTrajectory(file);
      expect(trajectory.turns).toHaveLength(1);
      expect(readFileSync(file, 'utf8')).not.toMatch(/overloaded_error|rate_limit_error|api_error/);

      // The upstream is closed: only the recording answers, and it answers once, with the success.
      expect(await askIntercepted(file, 'replay', upstream.url, ask)).toBe(recorded);
    },
  );
});
