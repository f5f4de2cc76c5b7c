import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import {
  Agent,
  AnthropicTransport,
  defineTool,
  type AgentResult,
  type AgentStreamEvent,
  type MessagesRequest,
  type ModelResponse,
  type StreamEvent,
} from 'legate';

/**
 * The streaming bench's material: real Messages API event streams recorded by others
 * (test/fixtures/api-captures, provenance in each file), served to the SDK by a `fetch` of our own
 * that answers with the recorded bytes, one chunk per SSE event as they arrive over the wire. No
 * network, no HTTP stack: what is timed is the SDK's stream parsing and whatever is built on it.
 */
const FILES = [
  'anthropic-sdk-ts--tool-use.sse.json', // a sentence, then a tool_use, its input in JSON deltas
  'ai-sdk--structured-output-format.sse.json', // a long text answer
  'pydantic-ai--thinking-signature.sse.json', // thinking deltas, a signature, then text
  'pydantic-ai--web-search.sse.json', // server tool blocks, web search results, citations
  'ai-sdk--code-execution-20250825.sse.json', // code execution server tools, many small deltas
];

const DIRECTORY = new URL('../../test/fixtures/api-captures/', import.meta.url);

export interface Capture {
  file: string;
  /** The recorded stream, one encoded chunk per SSE event. */
  chunks: Uint8Array[];
  /** How many SSE events the stream holds (pings and message events included): the unit of "per event". */
  events: number;
  /** The content block types of the message the stream makes, in order. */
  blockTypes: string[];
  /** A client whose `fetch` serves this stream to every request. */
  client: Anthropic;
}

function loadCapture(file: string): Capture {
  const recorded = JSON.parse(readFileSync(new URL(file, DIRECTORY), 'utf8')) as { response: { sse: string } };
  const frames = recorded.response.sse.split(/(?<=\n\n)/).filter((frame) => frame.trim() !== '');
  const encoder = new TextEncoder();
  const chunks = frames.map((frame) => encoder.encode(frame));
  const blockTypes = frames
    .filter((frame) => frame.includes('"content_block_start"'))
    .map((frame) => JSON.parse(frame.slice(frame.indexOf('data:') + 5)) as { content_block: { type: string } })
    .map((event) => event.content_block.type);
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
  const client = new Anthropic({ apiKey: 'sk-ant-bench', maxRetries: 0, fetch });
  return { file, chunks, events: frames.length, blockTypes, client };
}

export const CAPTURES: readonly Capture[] = FILES.map(loadCapture);

/** The request both paths send (the recorded answer does not depend on it). */
export const REQUEST: MessagesRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Go on.' }],
};

/** The anchor: the SDK's own streaming helper read to its final message. */
export function sdkFinalMessage(capture: Capture): Promise<Anthropic.Messages.Message> {
  return capture.client.messages.stream(REQUEST as Anthropic.Messages.MessageStreamParams).finalMessage();
}

const transports = new Map(CAPTURES.map((capture) => [capture, new AnthropicTransport({ client: capture.client })]));

/** Ours: legate's transport over the same client, the listener told each stream event. */
export function sendThroughTransport(
  capture: Capture,
  onStreamEvent: (event: StreamEvent) => void,
): Promise<ModelResponse> {
  const transport = transports.get(capture) ?? new AnthropicTransport({ client: capture.client });
  return transport.send(REQUEST, { onStreamEvent });
}

/** The tool the tool_use recording calls, so the agent can answer it; a plain lookup. */
const getWeather = defineTool({
  name: 'get_weather',
  description: 'The current weather in a location.',
  input: {
    type: 'object',
    properties: { location: { type: 'string' }, units: { type: 'string', enum: ['c', 'f'] } },
    required: ['location'],
  },
  run: ({ location, units }) => ({ location, temperature: units === 'f' ? 64 : 18, conditions: 'cloudy' }),
});

/** One turn per run: the recording is the model's one answer (a tool_use turn runs its tool, then the run ends). */
const agents = new Map(
  CAPTURES.map((capture) => [
    capture,
    new Agent({
      name: 'bench',
      model: REQUEST.model,
      tools: [getWeather],
      transport: transports.get(capture)!,
      maxTurns: 1,
    }),
  ]),
);

/** Ours, end to end: `agent.stream()` over the same transport, each of its events read by the caller. */
export async function streamThroughAgent(
  capture: Capture,
  onEvent: (event: AgentStreamEvent) => void,
): Promise<AgentResult> {
  const stream = agents.get(capture)!.stream('Go on.');
  for await (const event of stream) onEvent(event);
  return stream.result;
}
