import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MessagesRequest, type ModelResponse, ScriptedTransport, type StreamEvent } from '../../src/index.js';
import { parseModelResponse } from '../../src/messages/parseModelResponse.js';
import { MessageAssembler } from '../../src/transport/anthropic/MessageAssembler.js';
import { streamEventsOf } from '../../src/transport/streamEventsOf.js';
import { sseEventsOf, sseText } from '../../src/transport/scripted/sseEvents.js';
import { jsonData } from '../support/jsonData.js';

// Any response, rendered as the API streams it and cut into chunks at any bytes (inside a UTF-8 character too),
// is read back by the real SDK's SSE parser and legate's assembler as the same message: every block (unknown ones
// too), every field, every usage counter. Through the scripted transport, the run sees the response it would
// have seen unstreamed.

const request: MessagesRequest = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] };

/** Text of any code points: astral ones are 4 bytes in UTF-8, where a split falls inside a character. */
const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const json = jsonData({ maxDepth: 3 });
const fields = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => !['type', 'input', 'text', 'thinking', 'signature'].includes(k)),
  json,
  { maxKeys: 3 },
);
const id = fc.stringMatching(/^[A-Za-z0-9_]{1,20}$/);

const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('text'), text, citations: fc.array(json, { maxLength: 3 }) }),
  fc.record({ type: fc.constant('thinking'), thinking: text, signature: fc.base64String({ maxLength: 40 }) }),
  fc.record({ type: fc.constant('redacted_thinking'), data: fc.base64String({ maxLength: 40 }) }),
  fc.record({
    type: fc.constantFrom('tool_use', 'server_tool_use', 'mcp_tool_use'),
    id,
    name: id,
    input: fc.dictionary(fc.string(), json, { maxKeys: 4 }),
  }),
  fc.record({ type: fc.constant('compaction'), content: fc.option(text) }),
  fc.tuple(fc.stringMatching(/^[a-z_]{1,24}$/), fields).map(([type, more]) => ({ ...more, type })),
);

const usage = fc
  .tuple(fc.nat(), fc.nat(), fc.dictionary(fc.stringMatching(/^[a-z_]{1,20}$/), json, { maxKeys: 3 }))
  .map(([input_tokens, output_tokens, more]) => ({ ...more, input_tokens, output_tokens }));

const response = fc
  .record({
    id,
    model: id,
    content: fc.array(block, { maxLength: 5 }),
    stop_reason: fc.constantFrom('end_turn', 'tool_use', 'max_tokens', 'refusal', 'pause_turn'),
    stop_sequence: fc.option(text),
    usage,
    extra: fields,
    sent: fc.record(
      {
        stop_details: fc.option(fields.map((more) => ({ ...more, type: 'refusal' }))),
        container: fc.option(
          fc.tuple(id, fields).map(([cid, more]) => ({ ...more, id: cid, expires_at: '2026-12-01' })),
        ),
        context_management: fc.option(fields),
      },
      { requiredKeys: [] },
    ),
    cut: fc.option(fc.nat()),
  })
  .map(({ extra, sent, cut, ...r }): ModelResponse => {
    const built = { ...extra, ...sent, ...r, type: 'message', role: 'assistant' } as unknown as ModelResponse;
    const last = r.content.at(-1) as { input?: unknown } | undefined;
    if (cut !== null && last !== undefined && 'input' in last) {
      // Cut off inside the last tool input: a prefix of its JSON arrived, and no content_block_stop.
      const whole = JSON.stringify(last.input);
      last.input = {};
      built.incompleteToolUse = { index: r.content.length - 1, partialJson: whole.slice(0, cut % whole.length) };
      built.stop_reason = 'max_tokens';
    }
    return built;
  });

/** A response and byte offsets to cut its stream at. */
const split = response.chain((r) =>
  fc.tuple(fc.constant(r), fc.uniqueArray(fc.nat({ max: new TextEncoder().encode(sseText(sseEventsOf(r))).length }))),
);

/** The body as chunks cut at the offsets, served to the real SDK; its events assembled. */
async function assembled(r: ModelResponse, splitAt: number[]): Promise<unknown> {
  const bytes = new TextEncoder().encode(sseText(sseEventsOf(r)));
  const edges = [0, ...[...splitAt].sort((a, b) => a - b), bytes.length];
  const client = new Anthropic({
    apiKey: 'k',
    baseURL: 'http://sse.invalid',
    maxRetries: 0,
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i + 1 < edges.length; i++) controller.enqueue(bytes.slice(edges[i], edges[i + 1]));
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  });
  const assembler = new MessageAssembler();
  const params = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user' as const, content: 'go' }] };
  for await (const event of await client.messages.create({ ...params, stream: true })) assembler.add(event);
  return assembler.finish();
}

/** What a reader of the JSON sees (no -0, no undefined fields). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('a response streamed and split anywhere', () => {
  it('assembles to the same message, field for field', async () => {
    await fc.assert(
      fc.asyncProperty(split, async ([r, splitAt]) => {
        expect(asJson(await assembled(r, splitAt))).toEqual(asJson(r));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps a field named __proto__ that only a delta carries as a field, never as a prototype', () => {
    const events = JSON.parse(
      '[{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],' +
        '"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}},' +
        '{"type":"content_block_start","index":0,"content_block":{"type":"compaction","content":null}},' +
        '{"type":"content_block_delta","index":0,' +
        '"delta":{"type":"compaction_delta","content":"c","__proto__":{"a":1}}},' +
        '{"type":"content_block_stop","index":0},' +
        '{"type":"message_delta","delta":{"stop_reason":"end_turn","__proto__":{"b":2}},' +
        '"usage":{"output_tokens":2,"__proto__":{"c":3}},"__proto__":{"d":4}},{"type":"message_stop"}]',
    ) as unknown[];
    const assembler = new MessageAssembler();
    for (const event of events) assembler.add(event);
    const got = assembler.finish() as Record<string, Record<string, unknown>>;
    const block = (got.content as unknown as Record<string, unknown>[])[0]!;
    for (const object of [got, got.usage!, block]) expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.hasOwn(got, '__proto__') && Object.hasOwn(got.usage!, '__proto__')).toBe(true);
    expect(Object.hasOwn(block, '__proto__')).toBe(true);
  });

  it('through the scripted transport, the run gets what it would have unstreamed', async () => {
    await fc.assert(
      fc.asyncProperty(split, async ([r, splitAt]) => {
        const streamed = await new ScriptedTransport([r], { stream: { splitAt } }).send(request);
        expect(streamed).toEqual(parseModelResponse(asJson(r)));
      }),
      { numRuns: 100 },
    );
  });

  it('unsplit, tells an observer exactly the canonical stream of the response (streamEventsOf)', async () => {
    await fc.assert(
      fc.asyncProperty(response, async (r) => {
        const events: StreamEvent[] = [];
        await new ScriptedTransport([r], { stream: true }).send(request, { onStreamEvent: (e) => events.push(e) });
        expect(events).toEqual(streamEventsOf(r));
      }),
      { numRuns: 100 },
    );
  });
});
