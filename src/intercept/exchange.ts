import { MessageAssembler } from '../transport/anthropic/MessageAssembler.js';
import { parseModelResponse } from '../messages/parseModelResponse.js';
import type { MessagesRequest, ModelResponse } from '../messages/types.js';
import type { SseEvent } from '../transport/scripted/sseEvents.js';

/** One Messages API call as it crossed the HTTP boundary: the request body, and the response body or its events. */
export interface Exchange {
  request: MessagesRequest;
  response: ModelResponse;
  /** For a streamed response: every event, in order. */
  events?: SseEvent[];
}

/** The events of a `text/event-stream` body: each block's `data:` lines, parsed as JSON. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data !== '') events.push(JSON.parse(data) as SseEvent);
  }
  return events;
}

/** The message a stream of events stands for. */
export function messageOfEvents(events: readonly SseEvent[]): ModelResponse {
  const assembler = new MessageAssembler();
  for (const event of events) assembler.add(event);
  return parseModelResponse(assembler.finish(), 'The recorded stream');
}
