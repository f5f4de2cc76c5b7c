/**
 * Property: any Messages API response, blocks legate does not type and usage counters it does not
 * know included, survives the check, a recording, the YAML text, the read and the replay unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplayTransport, parseTrajectory, serializeTrajectory, type Trajectory } from '../../src/index.js';
import { parseModelResponse } from '../../src/messages/parseModelResponse.js';
import { API_STOP_REASONS, TYPED_BLOCK_TYPES } from '../../src/messages/knownValues.js';
import type { ModelResponse } from '../../src/messages/types.js';
import { toRecordedResponse } from '../../src/trajectory/conversation.js';
import { jsonData } from '../support/jsonData.js';

const json = jsonData({ maxDepth: 4 });
/** Fields besides the ones a shape names: any names, any JSON values. */
const extras = (named: string[]) =>
  fc.dictionary(
    fc.string().filter((key) => !named.includes(key)),
    json,
    { maxKeys: 4 },
  );
const count = fc.nat({ max: 1_000_000 });
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
const orNull = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
const withExtras = <T extends Record<string, unknown>>(named: fc.Arbitrary<T>) =>
  fc.tuple(named, extras([])).map(([fields, more]) => ({ ...more, ...fields }));
/** An object without the fields left undefined: as JSON has them. */
const defined = <T extends Record<string, unknown>>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;

const untypedType = fc
  .oneof(
    fc.constantFrom('server_tool_use', 'web_search_tool_result', 'mcp_tool_use', 'compaction', 'fallback'),
    fc.string({ minLength: 1 }),
  )
  .filter((type) => !(TYPED_BLOCK_TYPES as readonly string[]).includes(type));

const block = fc.oneof(
  fc.record({
    type: fc.constant('text' as const),
    text: fc.string(),
    citations: optional(fc.array(json, { minLength: 1, maxLength: 3 })),
  }),
  fc.record({ type: fc.constant('thinking' as const), thinking: fc.string(), signature: fc.base64String() }),
  fc.record({ type: fc.constant('redacted_thinking' as const), data: fc.base64String() }),
  fc.record({
    type: fc.constant('tool_use' as const),
    id: fc.string(),
    name: fc.string(),
    input: json,
    caller: optional(withExtras(fc.record({ type: fc.string(), tool_id: optional(fc.string()) }))),
    toolset_name: optional(fc.string()),
  }),
  fc.tuple(untypedType, extras(['type'])).map(([type, fields]) => ({ ...fields, type })),
);

const breakdown = (counters: string[]) =>
  orNull(withExtras(fc.record(Object.fromEntries(counters.map((c) => [c, optional(orNull(count))])))));

const usage = fc
  .tuple(
    fc.record({
      input_tokens: count,
      output_tokens: count,
      cache_creation_input_tokens: optional(orNull(count)),
      cache_read_input_tokens: optional(orNull(count)),
      cache_creation: optional(breakdown(['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens'])),
      server_tool_use: optional(breakdown(['web_search_requests', 'web_fetch_requests'])),
      output_tokens_details: optional(breakdown(['thinking_tokens'])),
      service_tier: optional(orNull(fc.constantFrom('standard', 'priority', 'batch'))),
    }),
    extras([]),
  )
  .map(([known, more]) => ({ ...more, ...known }));

const fields = fc.record({
  id: fc.string(),
  type: fc.constant('message' as const),
  role: fc.constant('assistant' as const),
  model: fc.string(),
  content: fc.array(block, { maxLength: 6 }),
  // Any string: a stop reason the API added after this release is kept as sent, through the file and the replay.
  stop_reason: orNull(fc.oneof(fc.constantFrom(...API_STOP_REASONS), fc.string())),
  stop_sequence: orNull(fc.string({ minLength: 1 })),
  stop_details: optional(
    orNull(withExtras(fc.record({ type: fc.constant('refusal'), category: orNull(fc.string()) }))),
  ),
  container: optional(orNull(withExtras(fc.record({ id: fc.string(), expires_at: fc.string() })))),
  context_management: optional(orNull(fc.dictionary(fc.string(), json, { maxKeys: 3 }))),
  usage,
});

/** A response; where a block takes input, sometimes with that input cut off mid-stream (`incompleteToolUse`). */
const response = fc.tuple(fields, optional(fc.string())).map(([generated, partialJson]) => {
  const index = generated.content.findLastIndex((block) => 'input' in block);
  return index === -1 || partialJson === undefined
    ? generated
    : { ...generated, incompleteToolUse: { index, partialJson } };
});

/** As the API sends it: no field left undefined, anywhere. */
const asSent = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_key, v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? defined(v) : v)),
  );

function recording(recorded: ModelResponse): Trajectory {
  return {
    version: 1,
    name: 'any-response',
    recordedAt: '2026-11-30T12:00:00.000Z',
    legate: '0.1.0',
    agent: 'a',
    model: recorded.model,
    request: { model: 'claude-sonnet-5-5', maxTokens: 64 },
    tools: [],
    input: 'Hello',
    turns: [{ response: toRecordedResponse(recorded) }],
    summary: { stopReason: 'end_turn', turns: 1, usage: { input: 0, output: 0 } },
  };
}

describe('a response', () => {
  it('is kept by the check, and survives record, YAML, read and replay unchanged (property)', async () => {
    await fc.assert(
      fc.asyncProperty(response, async (generated) => {
        const sent = asSent(generated) as ModelResponse;
        const parsed = parseModelResponse(sent);
        // Generated in the form legate keeps: the check changes nothing.
        expect(parsed).toStrictEqual(sent);
        const yaml = serializeTrajectory(recording(parsed));
        const read = parseTrajectory(yaml);
        expect(serializeTrajectory(read)).toBe(yaml);
        const replayed = await new ReplayTransport(read).send({
          model: 'claude-sonnet-5-5',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Hello' }],
        });
        expect(replayed).toStrictEqual(parsed);
      }),
      { numRuns: 100 },
    );
  });

  it("reads an older file's usage and server blocks, rewrites it to the same bytes, and replays them", async () => {
    // As legate wrote a response before the API's usage report and every block were kept whole.
    const older = serializeTrajectory(recording(parseModelResponse(JSON.parse(JSON.stringify(olderResponse)))))
      .replace(
        'usage: { input_tokens: 20, output_tokens: 4, cache_read_input_tokens: 7 }',
        'usage: { input: 20, output: 4, cacheRead: 7 }',
      )
      .replaceAll('- block:', '- server:');
    expect(older).toContain('usage: { input: 20, output: 4, cacheRead: 7 }');
    expect(older).toContain('- server:');
    const read = parseTrajectory(older);
    expect(serializeTrajectory(read)).toBe(older);
    const replayed = await new ReplayTransport(read).send({
      model: 'claude-sonnet-5-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(replayed.usage).toStrictEqual({ input_tokens: 20, output_tokens: 4, cache_read_input_tokens: 7 });
    expect(replayed.content).toStrictEqual(olderResponse.content);
  });
});

const olderResponse = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5-5',
  content: [
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
    { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
    { type: 'text', text: 'Nothing found.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 20, output_tokens: 4, cache_read_input_tokens: 7 },
};
