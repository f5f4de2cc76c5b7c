import { existsSync, mkdtempSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/errors/UsageError.js';
import { forwardUpstream } from '../../src/intercept/forwardUpstream.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { serializeTrajectory } from '../../src/trajectory/serialize.js';
import { useTempDir } from '../support/tempDir.js';
import { startScripted, type Scripted } from './scriptedUpstream.js';
import { intercepted, recordAgainst, textOf } from './underInterception.js';
import { capturedResponse } from './upstream.js';

const tempDir = useTempDir();

const failures = {
  '529 overloaded_error': { response: capturedResponse('issue--error-529-overloaded.json') },
  '429 rate_limit_error with retry-after 0': {
    response: capturedResponse('issue--error-429-rate-limit.json'),
    headers: { 'retry-after': '0', 'retry-after-ms': '1' },
  },
  '500 api_error': { response: capturedResponse('issue--error-500-api-error-overloaded-null-request-id.json') },
} satisfies Record<string, Scripted>;
const overloaded = failures['529 overloaded_error'];
const success = { response: capturedResponse('pydantic-ai--text-plain.json') };

type Ask = (client: Anthropic, params: Anthropic.MessageCreateParamsNonStreaming) => Promise<Anthropic.Message>;
const asks: Record<string, { capture: string; ask: Ask }> = {
  'client.messages.create': { capture: 'pydantic-ai--text-plain.json', ask: (c, p) => c.messages.create(p) },
  'client.messages.stream': {
    capture: 'anthropic-sdk-ts--text.sse.json',
    ask: (c, p) => c.messages.stream(p).finalMessage(),
  },
};

const params: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-opus-4-8',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Say hello.' }],
};

describe.each(Object.entries(asks))('recording %s through a retried failure', (_, { capture, ask }) => {
  it.each(Object.entries(failures))(
    'retries after a %s, records only the success, and replays it',
    async (_, failure) => {
      const recorded = await recordAgainst(tempDir(), [failure, { response: capturedResponse(capture) }], (c) =>
        ask(c, params),
      );
      expect(recorded.closeError).toBeUndefined();
      expect(recorded.seen).toHaveLength(2);
      expect(textOf(recorded.result)).not.toBe('');
      const trajectory = loadTrajectory(recorded.file);
      expect(trajectory.turns).toHaveLength(1);
      expect(serializeTrajectory(trajectory)).not.toMatch(/overloaded_error|rate_limit_error|api_error/);

      // The stand-in is closed: only the recording answers, and it answers once, with the success.
      const replayed = await intercepted(recorded.file, 'replay', recorded.url, (c) => ask(c, params));
      expect(replayed.closeError).toBeUndefined();
      expect(replayed.result).toEqual(recorded.result);
    },
  );
});

/** The statuses the SDK retries (408, 409, 429, 5xx), each with the API's error type for it, else `api_error`. */
const retryable = fc.constantFrom(
  ...([
    [408, 'timeout_error'],
    [409, 'api_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'api_error'],
    [504, 'timeout_error'],
    [529, 'overloaded_error'],
  ] as const),
);

describe('recording through any run of retried failures', () => {
  it('records the success after up to two failures; after three, hands on the last and keeps nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(retryable, { maxLength: 3 }),
        fc.constantFrom(...Object.values(asks)),
        async (failed, { capture, ask }) => {
          const answers: Scripted[] = failed.map(([status, type]) => ({
            response: { status, body: { type: 'error', error: { type, message: `${type} (${status})` } } },
            headers: { 'retry-after-ms': '1' },
          }));
          const dir = mkdtempSync(join(tempDir(), 'run-'));
          const recorded = await recordAgainst(dir, [...answers, { response: capturedResponse(capture) }], (c) =>
            ask(c, params).catch((error: unknown) => error),
          );
          if (failed.length <= 2) {
            expect(recorded.seen).toHaveLength(failed.length + 1);
            expect(textOf(recorded.result as Anthropic.Message)).not.toBe('');
            expect(recorded.closeError).toBeUndefined();
            expect(loadTrajectory(recorded.file).turns).toHaveLength(1);
          } else {
            const [status, type] = failed[2]!;
            expect(recorded.seen).toHaveLength(3);
            expect(recorded.result).toBeInstanceOf(Anthropic.APIError);
            expect((recorded.result as InstanceType<typeof Anthropic.APIError>).status).toBe(status);
            expect((recorded.result as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
              error: { type },
            });
            expect((recorded.closeError as UsageError).code).toBe('nothing_to_record');
            expect(existsSync(recorded.file)).toBe(false);
          }
        },
      ),
      { numRuns: 16 },
    );
  });
});

describe('recording through failures and aborts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('hands the last failure to the client, status and body, once retries run out, and records nothing', async () => {
    const recorded = await recordAgainst(tempDir(), [overloaded, overloaded, overloaded], (c) =>
      c.messages.create(params).catch((error: unknown) => error),
    );
    expect(recorded.seen).toHaveLength(3);
    expect(recorded.result).toBeInstanceOf(Anthropic.APIError);
    const error = recorded.result as InstanceType<typeof Anthropic.APIError>;
    expect(error.status).toBe(529);
    expect(error.error).toMatchObject({ error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(recorded.closeError).toBeInstanceOf(UsageError);
    expect((recorded.closeError as UsageError).code).toBe('nothing_to_record');
    expect(existsSync(recorded.file)).toBe(false);
  });

  it('gives up on a slow API upstream too when the client times out, and records the next request', async () => {
    // The client's clock is the test's (the SDK times a request with setTimeout): its 2 s run out once the stalled
    // request has reached the stand-in, however long that took.
    const upstream = await startScripted(['stall', success]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const file = join(tempDir(), 'retried.yaml');
      const recorded = await intercepted(file, 'record', upstream.url, async (client) => {
        const impatient = client.withOptions({ timeout: 2_000, maxRetries: 0 });
        const pending = impatient.messages.create(params).catch((error: unknown) => error);
        await upstream.arrival(0);
        await vi.advanceTimersByTimeAsync(2_000);
        const timedOut = await pending;
        return { timedOut, next: await client.messages.create(params) };
      });
      expect(recorded.result.timedOut).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
      expect(await upstream.seen[0]!.ended).toBe('abandoned');
      expect(textOf(recorded.result.next)).not.toBe('');
      expect(recorded.closeError).toBeUndefined();
      expect(loadTrajectory(file).turns).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      await upstream.close();
    }
  });

  it('gives up upstream too when the client aborts its request, and records nothing of it', async () => {
    const upstream = await startScripted(['stall']);
    try {
      const file = join(tempDir(), 'aborted.yaml');
      const recorded = await intercepted(file, 'record', upstream.url, async (client) => {
        const controller = new AbortController();
        const pending = client.messages.create(params, { signal: controller.signal }).catch((error: unknown) => error);
        await upstream.arrival(0);
        controller.abort();
        return await pending;
      });
      expect(recorded.result).toBeInstanceOf(Anthropic.APIUserAbortError);
      expect(await upstream.seen[0]!.ended).toBe('abandoned');
      expect((recorded.closeError as UsageError).code).toBe('nothing_to_record');
    } finally {
      await upstream.close();
    }
  });

  it('keeps no answer that came in whole just as the client gave up on it', async () => {
    const client = new AbortController();
    const body = new TextEncoder().encode(JSON.stringify({ type: 'message', content: [] }));
    // The API's answer ends, and the client's abort arrives before it is handed on.
    const arriving = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(body);
        client.abort();
        controller.close();
      },
    });
    vi.stubGlobal('fetch', async () => new Response(arriving, { headers: { 'content-type': 'application/json' } }));
    const request = new Request('http://127.0.0.1:9/v1/messages', {
      method: 'POST',
      body: JSON.stringify(params),
      signal: client.signal,
    });
    const forwarded = await forwardUpstream(request, (given) => given);
    expect(forwarded.received).toBeUndefined();
    expect(forwarded.response.type).toBe('error');
  });

  it.each([
    ['at once', 'issue--sse-error-overloaded-with-request-id.sse.json', 'overloaded_error', 0],
    ['after some text', 'issue--sse-error-mid-stream-api-error.sse.json', 'api_error', 4],
  ])(
    'hands a stream that fails %s to the client as sent, once, and records nothing',
    async (_, capture, type, kept) => {
      const recorded = await recordAgainst(tempDir(), [failingStream(capture, kept)], async (client) => {
        const stream = await client.messages.create({ ...params, stream: true });
        try {
          for await (const _event of stream);
        } catch (error) {
          return error;
        }
        return 'no error';
      });
      expect(recorded.result).toBeInstanceOf(Anthropic.APIError);
      expect((recorded.result as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { type } });
      // Not turned into another failure that the client retries: the API was asked once.
      expect(recorded.seen).toHaveLength(1);
      expect((recorded.closeError as UsageError).code).toBe('nothing_to_record');
    },
  );

  it('lets a client stop reading a stream part-way, recording and replaying', async () => {
    const firstEvent = async (client: Anthropic) => {
      const stream = await client.messages.create({ ...params, stream: true });
      for await (const event of stream) return event.type;
      return 'none';
    };
    const recorded = await recordAgainst(
      tempDir(),
      [{ response: capturedResponse('anthropic-sdk-ts--text.sse.json') }],
      firstEvent,
    );
    expect(recorded.result).toBe('message_start');
    expect(recorded.closeError).toBeUndefined();
    // The API's whole answer is recorded, however much of it the client read.
    expect(loadTrajectory(recorded.file).turns[0]!.events?.at(-1)?.type).toBe('message_stop');

    const replayed = await intercepted(recorded.file, 'replay', recorded.url, firstEvent);
    expect(replayed.result).toBe('message_start');
    expect(replayed.closeError).toBeUndefined();
  });

  it('lets other requests passing through the recording be retried (count_tokens after a 429)', async () => {
    const counted = { response: { status: 200, body: { input_tokens: 12 } } };
    const rateLimited = failures['429 rate_limit_error with retry-after 0'];
    const recorded = await recordAgainst(tempDir(), [rateLimited, counted, success], async (client) => ({
      count: await client.messages.countTokens(params),
      message: await client.messages.create(params),
    }));
    expect(recorded.seen.map((seen) => seen.url)).toEqual([
      '/v1/messages/count_tokens',
      '/v1/messages/count_tokens',
      '/v1/messages',
    ]);
    expect(recorded.result.count.input_tokens).toBe(12);
    expect(recorded.closeError).toBeUndefined();
    expect(loadTrajectory(recorded.file).turns).toHaveLength(1);
  });

  it('lets a client on node:http drop a 529 unread and retry', async () => {
    const recorded = await recordAgainst(tempDir(), [overloaded, success], async (client) => {
      const first = await post(`${client.baseURL}/v1/messages`, JSON.stringify(params));
      first.destroy();
      const second = await post(`${client.baseURL}/v1/messages`, JSON.stringify(params));
      return {
        first: first.statusCode,
        second: JSON.parse(Buffer.concat(await second.toArray()).toString('utf8')) as Anthropic.Message,
      };
    });
    expect(recorded.result.first).toBe(529);
    expect(textOf(recorded.result.second)).not.toBe('');
    expect(recorded.closeError).toBeUndefined();
    expect(loadTrajectory(recorded.file).turns).toHaveLength(1);
  });
});

function post(url: string, body: string) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, resolve);
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A 200 stream that fails in-band: the first `kept` events of a real stream, then the `error` event of
 * a capture, framed as the API frames it (`event: error`; the captured pastes lost their framing).
 */
function failingStream(errorCapture: string, kept: number): Scripted {
  const ok = capturedResponse('anthropic-sdk-ts--text.sse.json') as { status: number; sse: string };
  const failed = capturedResponse(errorCapture) as { status: number; sse: string };
  const error = failed.sse.split('\n').findLast((line) => line.startsWith('data: {"type":"error"'))!;
  const events = ok.sse.split('\n\n').slice(0, kept);
  return { response: { status: 200, sse: [...events, `event: error\n${error}`, ''].join('\n\n') } };
}

describe('a successful answer legate cannot read, while recording', () => {
  it('reaches the client as sent, once (no msw 500 to retry), and close() says why nothing was recorded', async () => {
    const odd = { response: { status: 200, body: { type: 'message', hello: 'not a Messages API response' } } };
    const recorded = await recordAgainst(tempDir(), [odd, success], (c) => c.messages.create(params));
    expect(recorded.seen).toHaveLength(1);
    expect(recorded.result).toMatchObject({ hello: 'not a Messages API response' });
    expect(recorded.closeError).toBeInstanceOf(UsageError);
    expect(recorded.closeError).toMatchObject({
      code: 'intercept_unsupported',
      message: expect.stringMatching(/^The answer to intercepted request 1 is not a Messages API response legate/),
    });
    expect(existsSync(recorded.file)).toBe(false);
  });
});
