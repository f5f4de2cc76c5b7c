/**
 * Every real Messages API response in test/fixtures/api-captures/, served over HTTP (msw) to the
 * real SDK: what the SDK returns survives legate's parse, a recording to YAML, the read and the
 * replay unchanged, and the next request carries the response's blocks back as the API takes them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import {
  AnthropicTransport,
  ReplayTransport,
  parseTrajectory,
  serializeTrajectory,
  type MessagesRequest,
  type ModelResponse,
  type Trajectory,
  type UserBlock,
} from '../../src/index.js';
import { toRecordedResponse } from '../../src/trajectory/conversation.js';
import { API_URL } from '../support/anthropicApi.js';

const DIR = 'test/fixtures/api-captures';

interface Capture {
  request?: { messages?: { role: string; content: unknown }[] };
  response: { status: number; body?: Record<string, unknown>; sse?: string };
}

const read = (name: string): Capture => JSON.parse(readFileSync(`${DIR}/${name}.json`, 'utf8')) as Capture;
const names = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length));

/** The types of the events of a stream, in order. */
const eventTypes = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => (JSON.parse(line.slice('data:'.length)) as { type: string }).type);

/** Captures that hold no response to keep: they are the transport's (TransportError kinds), said why. */
function notAResponse(name: string, capture: Capture): string | undefined {
  if (name.startsWith('ai-sdk--fault-')) return 'a synthetic stream fault (a TransportError of kind stream)';
  if (capture.response.status !== 200) return `an error body (HTTP ${capture.response.status}: a TransportError)`;
  const sse = capture.response.sse;
  if (sse !== undefined && eventTypes(sse).includes('error')) return 'an in-band stream error (a TransportError)';
  return undefined;
}

/**
 * The responses a capture holds, each as the API sends one. Two normalisations, both of how a
 * fixture was stored, not of what the API sent: an AI SDK fixture that holds several streams one
 * after another (each message_start ... message_stop: the steps of a multi-step run) is served
 * as that many responses; a hand-written stream whose last event lacks its closing blank line
 * (`anthropic-sdk-py--compaction-encrypted.sse`; the SDK drops such an event) gets it.
 */
function responsesOf(capture: Capture): Capture[] {
  const sse = capture.response.sse;
  if (sse === undefined) return [capture];
  const streams: string[] = [];
  let current = '';
  for (const event of (sse.endsWith('\n\n') ? sse : `${sse}\n`).split(/(?<=\n\n)/)) {
    current += event;
    if (eventTypes(event).includes('message_stop')) {
      streams.push(current);
      current = '';
    }
  }
  expect(current.trim(), 'nothing after the last message_stop').toBe('');
  return streams.map((stream) => ({ ...capture, response: { ...capture.response, sse: stream } }));
}

const responses = names.filter((name) => notAResponse(name, read(name)) === undefined);
const skipped = names.flatMap((name) => {
  const reason = notAResponse(name, read(name));
  return reason === undefined ? [] : [[name, reason] as const];
});

/**
 * The SDK's message as legate documents it keeps it (docs/trajectory-format.md, "What a response
 * keeps"): a text block's `citations` only when there are some, a tool_use's `toolset_name` only
 * when a string, `stop_sequence` null when absent; response-level fields legate does not type
 * (the SDK stream helper's `parsed_output`) left out; properties set to undefined are absent.
 */
function asLegateKeepsIt(message: Anthropic.Messages.Message): unknown {
  const { id, type, role, model, content, stop_reason, stop_sequence, stop_details, container, usage, ...rest } =
    message as Anthropic.Messages.Message & { context_management?: unknown; incompleteToolUse?: unknown };
  const kept: Record<string, unknown> = {
    id,
    type,
    role,
    model,
    content: content.map(asSentBack),
    stop_reason,
    stop_sequence: stop_sequence ?? null,
    usage,
  };
  if (stop_details !== undefined) kept.stop_details = stop_details;
  if (container !== undefined) kept.container = container;
  const { context_management } = rest as { context_management?: unknown };
  if (context_management !== undefined) kept.context_management = context_management;
  const { incompleteToolUse } = rest as { incompleteToolUse?: unknown };
  if (incompleteToolUse !== undefined) kept.incompleteToolUse = incompleteToolUse;
  return JSON.parse(JSON.stringify(kept));
}

/** A response block as the next request sends it back. */
function asSentBack(block: Anthropic.Messages.ContentBlock): unknown {
  const copy = { ...block } as Record<string, unknown>;
  if (copy.type === 'text' && !(Array.isArray(copy.citations) && copy.citations.length > 0)) delete copy.citations;
  if (copy.type === 'tool_use' && typeof copy.toolset_name !== 'string') delete copy.toolset_name;
  return JSON.parse(JSON.stringify(copy));
}

function answer(capture: Capture): Response {
  const { status, body, sse } = capture.response;
  if (sse !== undefined) return new HttpResponse(sse, { status, headers: { 'content-type': 'text/event-stream' } });
  return HttpResponse.json(body, { status });
}

const server = useMockServer();

/** Serves the capture to every request, keeping each request body. */
function serve(capture: Capture): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(API_URL, async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return answer(capture);
    }),
  );
  return bodies;
}

const client = () => new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
const request: MessagesRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello' }],
};

/** A file of one turn: the response as `legate record` writes it. */
function recording(name: string, response: ModelResponse): Trajectory {
  return {
    version: 1,
    name,
    recordedAt: '2026-11-30T12:00:00.000Z',
    legate: '0.1.0',
    agent: 'capture',
    model: response.model,
    request: { model: request.model, maxTokens: request.max_tokens },
    tools: [],
    input: 'Hello',
    turns: [{ response: toRecordedResponse(response) }],
    summary: { stopReason: 'end_turn', turns: 1, usage: { input: 0, output: 0 } },
  };
}

/** The request after the response: its blocks back as the assistant's turn, each tool call answered. */
function nextRequest(response: ModelResponse): MessagesRequest {
  const answers: UserBlock[] = response.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: block.id as string, content: 'done' }] : [],
  );
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: response.content },
      { role: 'user', content: answers.length > 0 ? answers : 'Go on.' },
    ],
  };
}

/**
 * The message a stream stands for, by the API's streaming documentation, written here apart from
 * the transport's assembler: `message_start`'s message; each block as `content_block_start` gave
 * it, its deltas applied (text, citations, thinking, signature, tool input JSON parsed at the
 * block's stop, compaction fields); `message_delta`'s fields and usage counters laid over it. A
 * block that takes input still open at the end (cut by `max_tokens`) keeps its start's input, and
 * the JSON that arrived is `incompleteToolUse`.
 */
async function wholeMessageOf(events: AsyncIterable<unknown>): Promise<Anthropic.Messages.Message> {
  type Fields = Record<string, unknown>;
  interface RawEvent {
    type: string;
    index: number;
    message: Fields & { content: Fields[] };
    content_block: Fields;
    delta: Fields & { type: string };
    usage: Fields;
    context_management?: unknown;
  }
  let message: Fields & { content: Fields[]; usage?: Fields } = { content: [] };
  const json = new Map<number, string>();
  for await (const event of events as AsyncIterable<RawEvent>) {
    const { index, delta } = event;
    const block = message.content[index]!;
    if (event.type === 'message_start') message = { ...event.message, content: [...event.message.content] };
    else if (event.type === 'content_block_start') {
      message.content.push({ ...event.content_block });
      if ('input' in event.content_block) json.set(index, '');
    } else if (event.type === 'content_block_delta') {
      if (delta.type === 'text_delta') block.text = `${block.text}${delta.text}`;
      else if (delta.type === 'citations_delta')
        block.citations = [...((block.citations as unknown[] | null) ?? []), delta.citation];
      else if (delta.type === 'thinking_delta') block.thinking = `${block.thinking}${delta.thinking}`;
      else if (delta.type === 'signature_delta') block.signature = delta.signature;
      else if (delta.type === 'input_json_delta') json.set(index, `${json.get(index)}${delta.partial_json}`);
      else if (delta.type === 'compaction_delta') Object.assign(block, { ...delta, type: block.type });
      else throw new Error(`no rule for ${delta.type}`);
    } else if (event.type === 'content_block_stop' && json.has(index)) {
      if (json.get(index) !== '') block.input = JSON.parse(json.get(index)!);
      json.delete(index);
    } else if (event.type === 'message_delta') {
      Object.assign(message, event.delta);
      message.usage = { ...message.usage, ...event.usage };
      if (event.context_management !== undefined) message.context_management = event.context_management;
    }
  }
  for (const [index, partialJson] of json) message.incompleteToolUse = { index, partialJson };
  return message as unknown as Anthropic.Messages.Message;
}

/** One response: parsed as the SDK returned it, recorded, read, replayed, and sent back. */
async function survives(name: string, capture: Capture): Promise<void> {
  const streamed = capture.response.sse !== undefined;
  serve(capture);

  // The message this traffic stands for: as the SDK returns the JSON; for a stream, its events
  // (as the SDK parses them) applied one by one, the message the API would have sent whole.
  const sdk = streamed
    ? await wholeMessageOf(
        await client().messages.create({ ...request, stream: true } as Anthropic.Messages.MessageCreateParamsStreaming),
      )
    : await client().messages.create({
        ...request,
        stream: false,
      } as Anthropic.Messages.MessageCreateParamsNonStreaming);

  // Parsed by the transport: the same message, as documented.
  const live = await new AnthropicTransport({ client: client(), stream: streamed }).send(request);
  expect(live, name).toStrictEqual(asLegateKeepsIt(sdk));
  expect(live.usage, name).toStrictEqual(JSON.parse(JSON.stringify(sdk.usage)));

  // Recorded to YAML, read back, served by a replay: unchanged; the file rewrites to the same bytes.
  const yaml = serializeTrajectory(recording(name, live));
  const file = parseTrajectory(yaml, `${name}.yaml`);
  expect(serializeTrajectory(file), name).toBe(yaml);
  const replay = new ReplayTransport(file, { file: `${name}.yaml` });
  const replayed = await replay.send(request);
  expect(replayed, name).toStrictEqual(live);
  replay.assertDone();

  // The next request carries every block back as the API takes it: through the SDK, onto the wire.
  const bodies = serve(read('ai-sdk--text'));
  await new AnthropicTransport({ client: client(), stream: false }).send(nextRequest(replayed));
  const sent = bodies[0]!.messages as { role: string; content: unknown }[];
  expect(sent[1], name).toStrictEqual({ role: 'assistant', content: sdk.content.map(asSentBack) });
}

describe('api-captures: every real response survives parse, record, read and replay', () => {
  it("serves every capture that is a response (the others are the transport tests')", () => {
    expect(responses.length + skipped.length).toBe(names.length);
    expect(responses.length).toBeGreaterThan(70);
    for (const [name, reason] of skipped) expect(reason, name).toMatch(/TransportError/);
  });

  it.each(responses)('%s', async (name) => {
    const served = responsesOf(read(name));
    for (const [i, capture] of served.entries()) {
      await survives(served.length === 1 ? name : `${name} (response ${i + 1} of ${served.length})`, capture);
    }
  });

  it.each([
    [
      'anthropic-sdk-py--programmatic-tool-calling-1',
      'anthropic-sdk-py--programmatic-tool-calling-2-container-sent-back',
    ],
    ['anthropic-sdk-ts--parallel-tool-use', 'anthropic-sdk-ts--parallel-tool-use-followup'],
    ['pydantic-ai--code-execution-container-1', 'pydantic-ai--code-execution-container-2-reuse'],
    ['pydantic-ai--tool-use-parallel', 'pydantic-ai--tool-use-parallel-followup'],
  ])('sends %s back as the real client did in the request the API accepted (%s)', async (first, followUp) => {
    serve(read(first));
    const response = await new AnthropicTransport({ client: client(), stream: false }).send(request);
    const replayed = await new ReplayTransport(parseTrajectory(serializeTrajectory(recording(first, response)))).send(
      request,
    );
    const bodies = serve(read('ai-sdk--text'));
    await new AnthropicTransport({ client: client(), stream: false }).send(nextRequest(replayed));
    const sent = bodies[0]!.messages as { role: string; content: unknown }[];
    // Key order aside (the real clients wrote their own), the very blocks the API accepted next.
    expect(sent[1]).toEqual(read(followUp).request!.messages![1]);
  });
});
