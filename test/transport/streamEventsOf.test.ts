import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Stream } from '@anthropic-ai/sdk/core/streaming';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import {
  AnthropicTransport,
  ReplayTransport,
  ScriptedTransport,
  streamEventsOf,
  type MessagesRequest,
  type ModelResponse,
  type StreamEvent,
  type Trajectory,
} from '../../src/index.js';
import { API_URL } from '../support/anthropicApi.js';
import { toRecordedBlock, toRecordedUsage } from '../../src/trajectory/conversation.js';

const CAPTURES = 'test/fixtures/api-captures';

/** The SSE captures of whole responses (no error event, a message_stop). */
const streamed = readdirSync(CAPTURES)
  .filter((file) => file.endsWith('.sse.json'))
  .map((file) => ({ file, sse: (JSON.parse(readFileSync(join(CAPTURES, file), 'utf8')).response.sse ?? '') as string }))
  // Synthetic fault streams, and a hand-authored one the SDK assembles no message from.
  .filter(({ file }) => !file.includes('--fault-') && file !== 'anthropic-sdk-py--compaction-encrypted.sse.json')
  .filter(({ sse }) => sse.split('"type":"message_start"').length === 2 && sse.includes('"type":"message_stop"'))
  .filter(({ sse }) => !sse.includes('"type":"error"'));

/** A stream's content, block by block: what started it and its deltas joined (a tool input parsed). */
interface Folded {
  start: { type: string; id?: string; name?: string };
  text: string;
  thinking: string;
  input: unknown;
}

/** The real API stream of a capture as the SDK parses it, folded per block; and the message the SDK assembles. */
async function readCapture(sse: string): Promise<{ folded: Folded[]; message: ModelResponse }> {
  const [events, forMessage] = Stream.fromSSEResponse<Anthropic.Messages.MessageStreamEvent>(
    new Response(sse),
    new AbortController(),
  ).tee();
  const assembled = MessageStream.fromReadableStream(forMessage.toReadableStream());
  const folded: Folded[] = [];
  const json: string[] = [];
  for await (const event of events) {
    if (event.type === 'content_block_start') {
      const block = event.content_block as unknown as { type: string; id?: string; name?: string; input?: unknown };
      folded[event.index] = {
        start: {
          type: block.type,
          ...(block.id === undefined ? {} : { id: block.id }),
          ...(block.name === undefined ? {} : { name: block.name }),
        },
        text: '',
        thinking: '',
        input: block.input,
      };
      json[event.index] = '';
    } else if (event.type === 'content_block_delta') {
      const at = folded[event.index]!;
      if (event.delta.type === 'text_delta') at.text += event.delta.text;
      if (event.delta.type === 'thinking_delta') at.thinking += event.delta.thinking;
      if (event.delta.type === 'input_json_delta') json[event.index] += event.delta.partial_json;
    }
  }
  folded.forEach((block, index) => {
    if (json[index] !== '') block.input = parsedOrCut(json[index]!);
  });
  return { folded, message: (await assembled.finalMessage()) as unknown as ModelResponse };
}

/** A tool input cut off by max_tokens is not JSON: the SDK guesses at it, and nothing is compared. */
const CUT = Symbol('cut off');

function parsedOrCut(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return CUT;
  }
}

/** The canonical events folded the same way, checking on the way that each block has at most one delta. */
function fold(events: StreamEvent[]): Folded[] {
  const folded: Folded[] = [];
  let open: number | undefined;
  let deltas = 0;
  for (const event of events) {
    if (event.type === 'block_start') {
      expect(open).toBeUndefined();
      open = event.index;
      deltas = 0;
      folded[event.index] = { start: event.block, text: '', thinking: '', input: undefined };
      continue;
    }
    expect(event.index).toBe(open);
    if (event.type === 'block_stop') {
      open = undefined;
      continue;
    }
    expect(++deltas).toBe(1);
    const at = folded[event.index]!;
    if (event.type === 'text_delta') at.text = event.text;
    if (event.type === 'thinking_delta') at.thinking = event.thinking;
    if (event.type === 'input_json_delta') at.input = JSON.parse(event.partialJson);
  }
  expect(open).toBeUndefined();
  return folded;
}

describe('streamEventsOf', () => {
  it('covers real API streams', () => expect(streamed.length).toBeGreaterThan(20));

  it.each(streamed)('is the real stream of $file with each block’s deltas joined', async ({ sse }) => {
    const { folded, message } = await readCapture(sse);
    const canonical = streamEventsOf(message);
    expect(canonical.map((event) => event.index)).toEqual(
      [...canonical.map((event) => event.index)].sort((a, b) => a - b),
    );
    const mine = fold(canonical);
    expect(mine.map(({ start, text, thinking }) => ({ start, text, thinking }))).toEqual(
      folded.map(({ start, text, thinking }) => ({ start, text, thinking })),
    );
    // A block with an input gets it whole; the stream's last word on it is the SDK's assembled input.
    mine.forEach((block, index) => {
      expect(block.input).toEqual((message.content[index] as { input?: unknown }).input);
      // SDK 1.14 does not join the input deltas of an mcp_tool_use block: its message keeps the start's `{}`.
      if (block.start.type === 'mcp_tool_use') expect(block.input).toEqual({});
      else if (folded[index]!.input !== CUT) expect(block.input).toEqual(folded[index]!.input);
    });
  });

  it.each(streamed)('is, through AnthropicTransport, the stream of $file joined', async ({ sse }) => {
    const { response, events } = await throughTransport(sse);
    expect(spaced(streamEventsOf(response))).toEqual(spaced(joined(events)));
  });

  it('gives each block a start, one delta of its whole content where it has one, and a stop', () => {
    const response: Pick<ModelResponse, 'content'> = {
      content: [
        { type: 'thinking', thinking: 'Weigh it.', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: '' },
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x', n: [1, 2] } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      ],
    };
    expect(streamEventsOf(response)).toEqual([
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, thinking: 'Weigh it.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'redacted_thinking' } },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'text' } },
      { type: 'block_stop', index: 2 },
      { type: 'block_start', index: 3, block: { type: 'text' } },
      { type: 'text_delta', index: 3, text: 'Looking.' },
      { type: 'block_stop', index: 3 },
      { type: 'block_start', index: 4, block: { type: 'tool_use', id: 'toolu_1', name: 'lookup' } },
      { type: 'input_json_delta', index: 4, partialJson: '{"q":"x","n":[1,2]}' },
      { type: 'block_stop', index: 4 },
      { type: 'block_start', index: 5, block: { type: 'web_search_tool_result' } },
      { type: 'block_stop', index: 5 },
    ]);
  });
});

const request: MessagesRequest = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] };

/** Real responses (JSON captures), for the transports to serve. */
const responses = readdirSync(CAPTURES)
  .filter((file) => file.endsWith('.json') && !file.endsWith('.sse.json'))
  .map((file) => JSON.parse(readFileSync(join(CAPTURES, file), 'utf8')).response)
  .filter((response) => response.status === 200 && response.body?.type === 'message')
  .map((response) => response.body as ModelResponse)
  .filter((body) =>
    body.content.every((block) => ['text', 'thinking', 'redacted_thinking', 'tool_use'].includes(block.type)),
  );

async function told(send: (onStreamEvent: (event: StreamEvent) => void) => Promise<ModelResponse>) {
  const events: StreamEvent[] = [];
  const response = await send((event) => events.push(event));
  return { events, response };
}

describe('streamEventsOf a response cut off by max_tokens inside a tool input', () => {
  it('streams the JSON that arrived and no block_stop, as the API does', () => {
    const response: Pick<ModelResponse, 'content' | 'incompleteToolUse'> = {
      content: [
        { type: 'text', text: 'Writing.' },
        { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} },
      ],
      incompleteToolUse: { index: 1, partialJson: '{"body": "It was a dark and st' },
    };
    expect(streamEventsOf(response)).toEqual([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Writing.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'tool_use', id: 'toolu_1', name: 'save' } },
      { type: 'input_json_delta', index: 1, partialJson: '{"body": "It was a dark and st' },
    ]);
  });

  it('tells no delta where nothing of the input arrived', () => {
    const cut = streamEventsOf({
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'save', input: {} }],
      incompleteToolUse: { index: 0, partialJson: '' },
    });
    expect(cut).toEqual([{ type: 'block_start', index: 0, block: { type: 'tool_use', id: 'toolu_1', name: 'save' } }]);
  });

  it('is the real stream of such a response, as legate assembles it', async () => {
    const { sse } = JSON.parse(
      readFileSync(join(CAPTURES, 'anthropic-sdk-ts--max-tokens-inside-tool-use.sse.json'), 'utf8'),
    ).response as { sse: string };
    const { response, events } = await throughTransport(sse);
    expect(response.incompleteToolUse).toBeDefined();
    expect(streamEventsOf(response)).toEqual(joined(events));
  });
});

/** A response and the stream events legate's live transport told for it, served the SSE text over HTTP. */
async function throughTransport(sse: string): Promise<{ response: ModelResponse; events: StreamEvent[] }> {
  const events: StreamEvent[] = [];
  const server = setupServer(
    http.post(API_URL, () => new HttpResponse(sse, { headers: { 'content-type': 'text/event-stream' } })),
  );
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const transport = new AnthropicTransport({ client: new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 }) });
    const response = await transport.send(request, { onStreamEvent: (event) => events.push(event) });
    return { response, events };
  } finally {
    server.close();
  }
}

/** Each tool input's JSON text written compactly (the API spaces it; no text stands for `{}`), where it is whole. */
function spaced(events: StreamEvent[]): StreamEvent[] {
  return events.map((event) => {
    if (event.type !== 'input_json_delta') return event;
    const input = parsedOrCut(event.partialJson === '' ? '{}' : event.partialJson);
    return input === CUT ? event : { ...event, partialJson: JSON.stringify(input) };
  });
}

/** A stream with each block's deltas of one kind joined into one. */
function joined(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (last?.type === 'text_delta' && event.type === 'text_delta' && last.index === event.index)
      out[out.length - 1] = { ...last, text: last.text + event.text };
    else if (last?.type === 'thinking_delta' && event.type === 'thinking_delta' && last.index === event.index)
      out[out.length - 1] = { ...last, thinking: last.thinking + event.thinking };
    else if (last?.type === 'input_json_delta' && event.type === 'input_json_delta' && last.index === event.index)
      out[out.length - 1] = { ...last, partialJson: last.partialJson + event.partialJson };
    else out.push(event);
  }
  return out;
}

describe('a transport without real streaming tells the canonical stream', () => {
  it('has real responses to serve', () => expect(responses.length).toBeGreaterThan(5));

  it('ScriptedTransport: for every response it serves', async () => {
    for (const served of responses) {
      const transport = new ScriptedTransport([served]);
      const { events, response } = await told((onStreamEvent) => transport.send(request, { onStreamEvent }));
      expect(events).toEqual(streamEventsOf(response));
    }
  });

  it('ScriptedTransport: for scripted replies of any text, thinking and tool calls', async () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text: fc.string() }),
      fc.record({ type: fc.constant('thinking' as const), thinking: fc.string(), signature: fc.string() }),
      fc.record({ type: fc.constant('tool_use' as const), name: fc.constant('t'), input: fc.jsonValue() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(block, { maxLength: 5 }), async (content) => {
        const transport = new ScriptedTransport([{ content, stopReason: 'end_turn' }]);
        const { events, response } = await told((onStreamEvent) => transport.send(request, { onStreamEvent }));
        expect(events).toEqual(streamEventsOf(response));
      }),
      { numRuns: 50 },
    );
  });

  it('ReplayTransport: for every recorded response, the same as the transport it recorded', async () => {
    for (const served of responses) {
      const live = await told((onStreamEvent) => new ScriptedTransport([served]).send(request, { onStreamEvent }));
      const trajectory: Trajectory = {
        version: 1,
        name: 'capture',
        recordedAt: '2026-11-30T00:00:00.000Z',
        legate: '0.0.0',
        agent: 'a',
        model: request.model,
        request: { model: request.model, maxTokens: request.max_tokens },
        tools: [],
        input: 'go',
        turns: [
          {
            response: {
              id: live.response.id,
              model: live.response.model,
              stopReason: live.response.stop_reason,
              usage: toRecordedUsage(live.response.usage),
              content: live.response.content.map(toRecordedBlock),
            },
          },
        ],
        summary: { stopReason: 'end_turn', turns: 1, usage: { input: 1, output: 1 } },
      } as Trajectory;
      const replayed = await told((onStreamEvent) => new ReplayTransport(trajectory).send(request, { onStreamEvent }));
      expect(replayed.events).toEqual(live.events);
      expect(replayed.events).toEqual(streamEventsOf(replayed.response));
    }
  });
});
