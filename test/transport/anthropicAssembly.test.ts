import { readdirSync, readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import { AnthropicTransport, type StreamEvent } from '../../src/index.js';
import { MessageAssembler } from '../../src/transport/anthropic/MessageAssembler.js';
import { API_URL } from '../support/anthropicApi.js';

// Every real SSE capture of one whole message assembles, through the SDK's own SSE parser, into the message the
// SDK's (beta) stream helper builds from it, and keeps what that helper drops (message_delta's
// context_management, usage.iterations). Fault streams, error events and a file holding several streams are
// the error tests' (anthropicErrors.test.ts).

const folder = new URL('../fixtures/api-captures/', import.meta.url);
const NOT_ONE_MESSAGE = new Set([
  'ai-sdk--fault-duplicate-message-start.sse.json',
  'ai-sdk--fault-spliced-message-start.sse.json',
  'ai-sdk--programmatic-tool-calling-caller.sse.json', // several responses' streams, one after another
  'ai-sdk--tool-search-regex.sse.json', // two responses' streams, one after another
  'anthropic-sdk-py--compaction-encrypted.sse.json', // its last event is not ended: see anthropicErrors.test.ts
  'issue--sse-error-mid-stream-api-error.sse.json',
  'issue--sse-error-overloaded-with-request-id.sse.json',
  'issue--sse-error-overloaded.sse.json',
]);
const captures = readdirSync(folder).filter((name) => name.endsWith('.sse.json') && !NOT_ONE_MESSAGE.has(name));

const server = useMockServer();

const params = { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Hi' }] };

function serveText(text: string): void {
  server.use(
    http.post(
      API_URL,
      () =>
        new HttpResponse(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(text));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    ),
  );
}

describe('MessageAssembler on the real SSE captures', () => {
  it.each(captures)('%s', async (name) => {
    const sse = (JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as { response: { sse: string } }).response.sse;
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    serveText(sse);
    const assembler = new MessageAssembler();
    for await (const event of await client.messages.create({ ...params, stream: true })) assembler.add(event);
    const ours = assembler.finish();

    serveText(sse);
    const sdk = JSON.parse(JSON.stringify(await client.beta.messages.stream(params).finalMessage())) as Record<
      string,
      unknown
    >;
    delete sdk.parsed_output; // the SDK's own helper field, not the API's
    const cut = ours.incompleteToolUse as { index: number; partialJson: string } | undefined;
    if (cut !== undefined) {
      // The SDK keeps a guess parsed from the cut-off JSON; legate keeps the start's input and the text that came.
      const content = sdk.content as Record<string, unknown>[];
      content[cut.index] = { ...content[cut.index], input: {} };
      expect(cut.partialJson.length).toBeGreaterThan(0);
    }
    expect(ours).toMatchObject(sdk);
  });
});

describe('a tool_use cut off by max_tokens (anthropic-sdk-ts--max-tokens-inside-tool-use.sse)', () => {
  it('keeps the input content_block_start gave and the JSON text that arrived, separately; no block_stop', async () => {
    const name = 'anthropic-sdk-ts--max-tokens-inside-tool-use.sse.json';
    const sse = (JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as { response: { sse: string } }).response.sse;
    serveText(sse);
    const events: StreamEvent[] = [];
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const response = await new AnthropicTransport({ client }).send(params, { onStreamEvent: (e) => events.push(e) });

    expect(response.stop_reason).toBe('max_tokens');
    expect(response.content[1]).toEqual({
      type: 'tool_use',
      id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY',
      name: 'make_file',
      input: {},
    });
    const arrived =
      '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",' +
      '\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes';
    expect(response.incompleteToolUse).toEqual({ index: 1, partialJson: arrived });
    const block1 = events.filter((e) => e.index === 1);
    expect(block1[0]).toEqual({
      type: 'block_start',
      index: 1,
      block: { type: 'tool_use', id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY', name: 'make_file' },
    });
    expect(block1.slice(1).every((e) => e.type === 'input_json_delta')).toBe(true);
    expect(block1.map((e) => (e.type === 'input_json_delta' ? e.partialJson : '')).join('')).toBe(arrived);
    expect(events.filter((e) => e.type === 'block_stop')).toEqual([{ type: 'block_stop', index: 0 }]);
  });
});
