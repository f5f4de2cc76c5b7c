/**
 * A stand-in for the Messages API over HTTP, for msw: the JSON bodies and the SSE event
 * streams the API sends, built event by event in the API's own wire format.
 */
import { http, HttpResponse } from 'msw';

export const API_URL = 'https://api.anthropic.com/v1/messages';

type Json = Record<string, unknown>;

/** One server-sent event as the API writes it: an `event:` line naming the type, then the JSON. */
export function sseFrame(event: Json): string {
  return `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function sseBody(events: Json[]): string {
  return events.map(sseFrame).join('');
}

/** An SSE response, optionally split into chunks at awkward places, as a network would. */
export function sseResponse(events: Json[], options: { chunkSize?: number } = {}): Response {
  const body = sseBody(events);
  const encoder = new TextEncoder();
  const size = options.chunkSize ?? body.length;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < body.length; i += size) controller.enqueue(encoder.encode(body.slice(i, i + size)));
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream', 'request-id': 'req_test' } });
}

export function messageStart(options: { id?: string; model?: string; inputTokens?: number } = {}): Json {
  return {
    type: 'message_start',
    message: {
      id: options.id ?? 'msg_01',
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'claude-sonnet-5-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: options.inputTokens ?? 25,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    },
  };
}

export const ping: Json = { type: 'ping' };

export function textBlock(index: number, pieces: string[]): Json[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ...pieces.map((text) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    { type: 'content_block_stop', index },
  ];
}

export function thinkingBlock(index: number, pieces: string[], signature: string): Json[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
    ...pieces.map((thinking) => ({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } })),
    { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } },
    { type: 'content_block_stop', index },
  ];
}

/** A tool_use block whose input arrives as JSON text in fragments, split wherever the model split it. */
export function toolUseBlock(index: number, id: string, name: string, jsonFragments: string[]): Json[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } },
    ...jsonFragments.map((partial_json) => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json },
    })),
    { type: 'content_block_stop', index },
  ];
}

export function messageEnd(stopReason: string, outputTokens: number): Json[] {
  return [
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    },
    { type: 'message_stop' },
  ];
}

export function errorEvent(type: string, message: string): Json {
  return { type: 'error', error: { type, message } };
}

/** The API's JSON error body. */
export function errorBody(type: string, message: string): Json {
  return { type: 'error', error: { type, message } };
}

/** A non-streamed response body. */
export function messageJson(content: Json[], stopReason: string, usage = { input_tokens: 12, output_tokens: 6 }): Json {
  return {
    id: 'msg_json_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: null, cache_read_input_tokens: null },
  };
}

/** Answers successive POSTs to the Messages API with successive responses, and keeps the request bodies. */
export function messagesEndpoint(answers: (() => Response)[]) {
  const bodies: Json[] = [];
  let call = 0;
  const handler = http.post(API_URL, async ({ request }) => {
    bodies.push((await request.json()) as Json);
    const answer = answers[call++];
    if (answer === undefined)
      return HttpResponse.json(errorBody('invalid_request_error', 'no more scripted answers'), { status: 400 });
    return answer();
  });
  return { handler, bodies, calls: () => call };
}
