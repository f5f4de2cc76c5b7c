import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import { AnthropicTransport, type MessagesRequest, type StreamEvent, TransportError } from '../../src/index.js';
import { API_URL, messageEnd, messageStart, sseFrame, sseResponse, textBlock } from '../support/anthropicApi.js';

// Every failure of the Anthropic transport is a TransportError with a kind a caller can act on: `api` (the API
// answered with an error), `connection` (no answer, or it stopped), `stream` (the events are not a whole message).
// Served through the real SDK over msw, from the real captures in test/fixtures/api-captures/ where there is one.

const server = useMockServer();

const request: MessagesRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

interface Capture {
  response: { status: number; body?: unknown; sse?: string };
}
const capture = (name: string): Capture =>
  JSON.parse(readFileSync(new URL(`../fixtures/api-captures/${name}.json`, import.meta.url), 'utf8')) as Capture;

const encoder = new TextEncoder();
const sseHeaders = { 'content-type': 'text/event-stream', 'request-id': 'req_test' };
/** SSE text as the body of a stream (msw leaves a cancelled string body unsettled: mswjs/interceptors#799). */
const rawSse = (text: string) =>
  new HttpResponse(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(text));
        controller.close();
      },
    }),
    { headers: sseHeaders },
  );
const serve = (answer: () => Response | Promise<Response>) => server.use(http.post(API_URL, answer));

/** The transport's failure for one send, over a client that does not retry (each test serves one answer). */
async function failure(options: { stream?: boolean; maxRetries?: number; timeout?: number } = {}) {
  const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
  const events: StreamEvent[] = [];
  const error = await new AnthropicTransport({ client, ...options })
    .send(request, { onStreamEvent: (e) => events.push(e) })
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  expect(error).toBeInstanceOf(TransportError);
  expect((error as Error).cause).not.toBeInstanceOf(TransportError);
  return { error: error as TransportError, events };
}

describe('kind api: the API answered with an error', () => {
  it.each([
    ['issue--error-429-rate-limit', 429, 'rate_limit_error', undefined],
    ['anthropic-sdk-py--error-429-rate-limit', 429, 'rate_limit_error', undefined],
    ['issue--error-500-api-error-overloaded-null-request-id', 500, 'api_error', undefined],
    ['issue--error-529-overloaded', 529, 'overloaded_error', 'req_011CZAY8xEUqbHSEE3BdFtMh'],
    ['issue--error-overloaded-with-details-null', 529, 'overloaded_error', undefined],
    ['issue--error-400-prompt-too-long', 400, 'invalid_request_error', 'req_011CV5J4YZo4J3KLTDZgDN7S'],
    ['pydantic-ai--error-400-invalid-request', 400, 'invalid_request_error', undefined],
    ['anthropic-sdk-py--error-400-unanswered-tool-result', 400, 'invalid_request_error', undefined],
    ['pydantic-ai--error-404-not-found-count-tokens', 404, 'not_found_error', undefined],
  ] as const)('%s: status %i, %s, the API message and what to do', async (name, status, type, requestId) => {
    const { response } = capture(name);
    expect(response.status).toBe(status);
    serve(() => HttpResponse.json(response.body as Record<string, unknown>, { status }));
    for (const stream of [true, false]) {
      const { error } = await failure({ stream });
      const apiMessage = (response.body as { error: { message: string } }).error.message;
      expect(error).toMatchObject({ kind: 'api', code: 'transport_failed', status, errorType: type });
      if (requestId !== undefined) expect(error.requestId).toBe(requestId);
      expect(error.message).toContain(`with HTTP ${status} (${type}): ${apiMessage}`);
      if (status === 429 || status >= 500) expect(error.message).toMatch(/The SDK gave up .* maxRetries/);
      else expect(error.message).not.toContain('retr');
    }
  });

  it('retries what passes as often as maxRetries says, then reports the last answer', async () => {
    let calls = 0;
    serve(() => {
      calls++;
      return new HttpResponse(null, { status: 429, headers: { 'retry-after-ms': '1' } });
    });
    const client = new Anthropic({ apiKey: 'sk-ant-test-key' });
    const error = await new AnthropicTransport({ client, maxRetries: 3 }).send(request).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toMatchObject({ kind: 'api', status: 429 });
    expect((error as Error).message).toContain('after up to 3 retries');
  });

  it('an error event mid-stream (the tail of a live stream): api, no status, not retried', async () => {
    // The capture is the tail the reporter pasted: the stream's first events were not; they are put back here,
    // and the blank line that ends an event as the API frames it, which the paste lost after the last one.
    const tail = `${capture('issue--sse-error-mid-stream-api-error.sse').response.sse!}\n`;
    const head =
      sseFrame(messageStart()) +
      sseFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    serve(() => rawSse(head + tail));
    const { error, events } = await failure();
    expect(error).toMatchObject({ kind: 'api', status: undefined, errorType: 'api_error' });
    expect(error.message).toBe(
      'The Anthropic API failed mid-stream (api_error): Internal server error. A stream that has begun is not ' +
        'retried: send the request again.',
    );
    expect(events.map((e) => e.type)).toEqual(['block_start', 'text_delta', 'text_delta']);
  });

  it.each(['issue--sse-error-overloaded.sse', 'issue--error-overloaded-with-details-null'])(
    '%s as an in-band error event: api, overloaded_error',
    async (name) => {
      const { response } = capture(name);
      // Framed as the API ends an event (a blank line), which the logged chunk lost.
      const body =
        response.sse === undefined ? `event: error\ndata: ${JSON.stringify(response.body)}\n\n` : `${response.sse}\n`;
      serve(() => rawSse(sseFrame(messageStart()) + body));
      const { error } = await failure();
      expect(error).toMatchObject({ kind: 'api', status: undefined, errorType: 'overloaded_error' });
    },
  );

  it('keeps the request_id an error event carries', async () => {
    // The reporter quoted the data line only; the API names the event (`event: error`), which the SDK needs.
    const data = capture('issue--sse-error-overloaded-with-request-id.sse').response.sse!;
    serve(() => rawSse(`${sseFrame(messageStart())}event: error\n${data}\n`));
    const { error } = await failure();
    expect(error).toMatchObject({
      kind: 'api',
      errorType: 'overloaded_error',
      requestId: 'req_011Ce3HwQb6vtbs9LQVmh4oe',
    });
  });

  it('an error event the stream does not end with a blank line is lost to the SDK parser: kind stream', async () => {
    serve(() => rawSse(sseFrame(messageStart()) + capture('issue--sse-error-overloaded.sse').response.sse!));
    const { error } = await failure();
    expect(error).toMatchObject({ kind: 'stream', errorType: undefined });
    expect(error.message).toContain('the stream ended after 1 event, before message_stop');
  });

  it('an error data line with no event name is skipped by the SDK parser: the stream then has no message', async () => {
    serve(() => rawSse(capture('issue--sse-error-overloaded-with-request-id.sse').response.sse!));
    const { error } = await failure();
    expect(error).toMatchObject({ kind: 'stream', errorType: undefined });
    expect(error.message).toContain('the stream ended before message_start');
  });
});

describe('kind connection: no answer, or it stopped', () => {
  it('a network error (msw HttpResponse.error): connection_failed, naming the URL', async () => {
    serve(() => HttpResponse.error());
    const { error } = await failure();
    expect(error).toMatchObject({ kind: 'connection', code: 'connection_failed', url: 'https://api.anthropic.com' });
  });

  it('no answer within the timeout: says the timeout and how to change it', async () => {
    serve(() => new Promise<never>(() => {}));
    const { error } = await failure({ timeout: 20 });
    expect(error).toMatchObject({ kind: 'connection', code: 'transport_failed', status: undefined });
    expect(error.cause).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(error.message).toBe(
      'The Anthropic API did not answer within 20 ms (it was not retried: maxRetries is 0). Try again later, ' +
        'or give the transport a longer timeout (new AnthropicTransport({ timeout })).',
    );
  });

  it.each([true, false])('the connection reset mid-answer (stream: %s)', async (stream) => {
    const start = stream
      ? sseFrame(messageStart()) + textBlock(0, ['Hal']).slice(0, 2).map(sseFrame).join('')
      : '{"id":';
    serve(
      () =>
        new HttpResponse(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              controller.enqueue(encoder.encode(start));
              controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
            },
          }),
          { headers: stream ? sseHeaders : { 'content-type': 'application/json' } },
        ),
    );
    const { error } = await failure({ stream });
    expect(error).toMatchObject({ kind: 'connection', code: 'transport_failed', status: undefined });
    expect(error.message).toMatch(
      /^The connection to the Anthropic API broke (mid-stream|while).*: other side closed\./,
    );
  });
});

describe('kind stream: the events are not a whole message', () => {
  const whole = [messageStart(), ...textBlock(0, ['Hello']), ...messageEnd('end_turn', 3)];

  it.each([
    ['ends without message_stop', whole.slice(0, -1), 'the stream ended after 5 events, before message_stop'],
    ['ends inside a block', whole.slice(0, 3), 'the stream ended after 3 events while block 0 was open'],
    [
      'a delta for a block that never started',
      [messageStart(), { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'x' } }],
      'a content_block_delta arrived for block 2, which never started',
    ],
    [
      'a delta after its block stopped',
      [...whole.slice(0, 4), whole[2]!],
      'a content_block_delta arrived for block 0, which already stopped',
    ],
    ['a block before message_start', whole.slice(1), 'a content_block_start event arrived before message_start'],
    [
      'a block index skipped',
      [messageStart(), ...textBlock(1, ['x'])],
      'content_block_start for block 1; the next block is 0',
    ],
    [
      'a delta of the wrong kind for its block',
      [
        messageStart(),
        whole[1]!,
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'x' } },
      ],
      'a thinking_delta arrived for block 0, which is a text block',
    ],
    [
      'a delta type legate cannot apply',
      [messageStart(), whole[1]!, { type: 'content_block_delta', index: 0, delta: { type: 'sparkle_delta' } }],
      'a sparkle_delta arrived for block 0: a delta legate cannot apply',
    ],
    [
      'tool input that is not JSON',
      [
        messageStart(),
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'add', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a": tru' } },
        { type: 'content_block_stop', index: 0 },
        ...messageEnd('tool_use', 3),
      ],
      'the input of block 0 (tool_use add) is not JSON',
    ],
  ])('%s', async (_, events, said) => {
    serve(() => sseResponse(events as Record<string, unknown>[]));
    const { error } = await failure();
    expect(error).toMatchObject({ kind: 'stream', code: 'transport_failed', status: undefined });
    expect(error.message).toContain(`The Anthropic API's stream is not a whole message: ${said}`);
  });

  it('an event whose data is not JSON', async () => {
    serve(() =>
      rawSse(`${sseFrame(messageStart())}event: content_block_start\ndata: {"type":"content_block_start",\n\n`),
    );
    const { error } = await failure();
    expect(error).toMatchObject({ kind: 'stream' });
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(error.message).toMatch(/^The Anthropic API's answer is not a whole message: event 2 is not JSON \(/);
  });

  it('a JSON answer that does not parse (stream: false)', async () => {
    serve(() => new HttpResponse('{"id": "msg_01", "ty', { headers: { 'content-type': 'application/json' } }));
    const { error } = await failure({ stream: false });
    expect(error).toMatchObject({ kind: 'stream' });
    expect(error.message).toContain('its JSON body does not parse');
  });

  it.each([
    [
      'ai-sdk--fault-duplicate-message-start.sse',
      'a second message_start arrived before message_stop: two messages in one stream',
    ],
    ['ai-sdk--fault-spliced-message-start.sse', 'a second message_start arrived before message_stop'],
  ])('%s (a synthetic fault stream): refused, never merged', async (name, said) => {
    serve(() => rawSse(capture(name).response.sse!));
    const { error } = await failure();
    expect(error).toMatchObject({ kind: 'stream' });
    expect(error.message).toContain(said);
  });

  it('a hand-authored capture whose last event has no closing blank line: message_stop never comes', async () => {
    // By the SSE standard an event is dispatched at the blank line that ends it; the SDK parser follows it.
    serve(() => rawSse(capture('anthropic-sdk-py--compaction-encrypted.sse').response.sse!));
    const { error, events } = await failure();
    expect(error).toMatchObject({ kind: 'stream' });
    expect(error.message).toContain('the stream ended after 8 events, before message_stop');
    expect(events.at(-1)).toEqual({ type: 'block_stop', index: 1 });
  });

  it('unknown event types are skipped wherever they come, as the streaming documentation asks', async () => {
    serve(() =>
      sseResponse([
        { type: 'future_event', x: 0 },
        messageStart(),
        { type: 'future_event', x: 1 },
        ...textBlock(0, ['Hi']),
        ...messageEnd('end_turn', 1),
        { type: 'future_event', x: 2 },
      ]),
    );
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const response = await new AnthropicTransport({ client }).send(request);
    expect(response.content).toEqual([{ type: 'text', text: 'Hi' }]);
  });
});

describe('kind request: the request was never sent', () => {
  it('a request the SDK will only stream, sent as JSON: the SDK refuses it, said as the SDK says it', async () => {
    let calls = 0;
    serve(() => {
      calls++;
      return HttpResponse.json({});
    });
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const error = await new AnthropicTransport({ client, stream: false })
      .send({ ...request, max_tokens: 500_000 })
      .catch((e: unknown) => e);
    expect(calls).toBe(0);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ kind: 'request', code: 'transport_failed' });
    expect((error as Error).message).toMatch(
      /^The Anthropic SDK did not send the request: Streaming is required for operations that may take longer/,
    );
  });
});

describe('what is not a transport failure', () => {
  it.each([true, false])(
    'a request JSON.stringify cannot write passes its TypeError through (stream: %s)',
    async (stream) => {
      serve(() => HttpResponse.json({}));
      const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
      const unwritable = {
        ...request,
        messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 1n }] }],
      };
      const error = await new AnthropicTransport({ client, stream })
        .send(unwritable as unknown as MessagesRequest)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe('Do not know how to serialize a BigInt');
    },
  );

  it("a stream cancelled by the caller's signal rejects with the caller's reason", async () => {
    serve(
      () =>
        new HttpResponse(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(
                encoder.encode(sseFrame(messageStart()) + textBlock(0, ['Hal']).slice(0, 2).map(sseFrame).join('')),
              );
            },
          }),
          { headers: sseHeaders },
        ),
    );
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const error = await new AnthropicTransport({ client })
      .send(request, {
        signal: controller.signal,
        onStreamEvent: (e) => e.type === 'text_delta' && controller.abort(reason),
      })
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
  });

  it("an observer's own error passes through as it was, and the stream is closed", async () => {
    serve(() => sseResponse([messageStart(), ...textBlock(0, ['Hi']), ...messageEnd('end_turn', 1)]));
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const mine = new TypeError('my observer broke');
    const error = await new AnthropicTransport({ client })
      .send(request, {
        onStreamEvent: () => {
          throw mine;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(mine);
  });
});
