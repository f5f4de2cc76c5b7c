import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { reply } from '../../../src/index.js';
import { startStandIn, type StandIn } from '../../../src/intercept/index.js';
import { parseSse } from '../../../src/intercept/exchange.js';
import type { ModelResponse } from '../../../src/messages/types.js';
import { sseEventsOf } from '../../../src/transport/scripted/sseEvents.js';
import { capturedResponse } from '../upstream.js';
import { counter, setupFor } from '../capturedConversations.js';
import { createLoop, streamLoop } from '../toolLoops.js';

// startStandIn serving a script (the steps ScriptedTransport takes) to the real SDK over HTTP.

const started: StandIn[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((standIn) => standIn.close()));
});

async function serve(script: Parameters<typeof startStandIn>[0]['script']): Promise<StandIn> {
  const standIn = await startStandIn({ script });
  started.push(standIn);
  return standIn;
}

const client = (standIn: StandIn, baseURL = standIn.url) => new Anthropic({ apiKey: 'stand-in', baseURL });
const ask = { model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello?' }] };

describe('startStandIn with a script', () => {
  it('answers messages.create with the next step as JSON, completed as ScriptedTransport completes it', async () => {
    const standIn = await serve([reply.text('Hi there.'), reply.toolUse('lookup', { id: 7 }, { text: 'Looking.' })]);
    const first = await client(standIn).messages.create(ask);
    expect(first).toMatchObject({
      id: 'msg_scripted_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: 'Hi there.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    const second = await client(standIn).messages.create(ask);
    expect(second.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_s2_1', name: 'lookup', input: { id: 7 } },
    ]);
    expect(standIn.requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/v1/messages', ask],
      ['POST', '/v1/messages', ask],
    ]);
  });

  it('answers messages.stream with the events the API sends for the same response', async () => {
    // The usage given: else it is estimated from the request, which says `stream: true` in one of them.
    const usage = { input_tokens: 12, output_tokens: 9, cache_read_input_tokens: 3 };
    const script = [{ ...reply.toolUse('lookup', { id: 7 }, { text: 'Looking.' }), usage }];
    const json = await client(await serve(script)).messages.create(ask);
    const streamed = await client(await serve(script))
      .messages.stream(ask)
      .finalMessage();
    expect(streamed).toMatchObject(json as unknown as Record<string, unknown>);
    // The body itself: sseEventsOf's events, framed as the API frames them.
    const standIn = await serve(script);
    const answer = await fetch(`${standIn.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ ...ask, stream: true }),
    });
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await answer.text());
    expect(events).toEqual(sseEventsOf(json as unknown as ModelResponse));
    expect(events.map((event) => event.type)).toContain('message_stop');
  });

  it('serves a recorded API response as it is: its id, model and usage counters', async () => {
    const captured = capturedResponse('anthropic-sdk-ts--parallel-tool-use.json') as { body: ModelResponse };
    const standIn = await serve([captured.body]);
    expect(await client(standIn).messages.create(ask)).toEqual(captured.body);
  });

  it('runs a tool loop across turns, over create and over stream', async () => {
    const script = () => [
      reply.toolUse('test_tool', { count: 1 }),
      reply.toolUse('test_tool', { count: 2 }),
      reply.text('Done: 1, 2.'),
    ];
    for (const loop of [createLoop, streamLoop]) {
      const standIn = await serve(script());
      const outcome = await loop(setupFor(counter, standIn.url));
      expect(outcome).toEqual({
        text: 'Done: 1, 2.',
        calls: [
          { name: 'test_tool', input: { count: 1 } },
          { name: 'test_tool', input: { count: 2 } },
        ],
      });
      const sent = standIn.requests.map((request) => request.body as { messages: unknown[] });
      expect(sent.map((body) => body.messages.length)).toEqual([1, 3, 5]);
      expect(sent[2]!.messages[4]).toEqual({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_s2_1', content: 'test_tool called with {"count":2}' }],
      });
    }
  });

  it('gives a step function the request and the call number', async () => {
    const standIn = await serve([
      (request, call) => reply.text(`call ${call}: ${JSON.stringify(request.messages[0]!.content)}`),
    ]);
    expect((await client(standIn).messages.create(ask)).content).toEqual([{ type: 'text', text: 'call 1: "Hello?"' }]);
  });

  it('answers under any base path ending in /v1/messages, with any query (Claude Code asks ?beta=true)', async () => {
    const standIn = await serve([reply.text('one'), reply.text('two')]);
    const prefixed = await client(standIn, `${standIn.url}/anthropic`).messages.create(ask);
    const beta = await fetch(`${standIn.url}/v1/messages?beta=true`, { method: 'POST', body: JSON.stringify(ask) });
    expect([prefixed.content, ((await beta.json()) as ModelResponse).content]).toEqual([
      [{ type: 'text', text: 'one' }],
      [{ type: 'text', text: 'two' }],
    ]);
    expect(standIn.requests.map((request) => request.path)).toEqual([
      '/anthropic/v1/messages',
      '/v1/messages?beta=true',
    ]);
  });

  it('delivers a streamed step as its script says: an error event, a dropped connection, chunks', async () => {
    const text = reply.text('A long enough answer to be cut.');
    const standIn = await serve([
      reply.streamed(text, { errorAfterEvents: 2 }),
      reply.streamed(text, { dropAfterBytes: 60 }),
      reply.streamed(text, { splitAt: [1, 7, 30] }),
    ]);
    const noRetries = new Anthropic({ apiKey: 'stand-in', baseURL: standIn.url, maxRetries: 0 });
    const overloaded = await noRetries.messages
      .stream(ask)
      .finalMessage()
      .catch((error: unknown) => error);
    expect(overloaded).toMatchObject({ error: { type: 'error', error: { type: 'overloaded_error' } } });
    const dropped = await noRetries.messages
      .stream(ask)
      .finalMessage()
      .catch((error: unknown) => error);
    expect(dropped).toBeInstanceOf(Anthropic.APIConnectionError);
    const split = await noRetries.messages.stream(ask).finalMessage();
    expect(split.content).toEqual(text.content);
    expect(standIn.requests).toHaveLength(3);
  });
});
