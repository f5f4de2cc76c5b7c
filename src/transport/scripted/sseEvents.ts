import { jsonText } from '../../json/jsonText.js';
import type { ModelResponse, ResponseBlock } from '../../messages/types.js';

/** One server-sent event of a Messages API stream, as the API writes its JSON. */
export type SseEvent = { type: string; [field: string]: unknown };

/** Response fields the API sends in `message_delta`, not in `message_start`. */
const DELTA_FIELDS = ['stop_reason', 'stop_sequence', 'stop_details', 'container'] as const;

/**
 * A response as the Messages API streams it: `message_start` (the message with no content and no stop
 * reason), per block `content_block_start` / deltas / `content_block_stop`, `message_delta` (stop
 * reason, `stop_details`, `container`, `context_management`, the usage totals), `message_stop`. Each block's
 * text, thinking or tool input is one delta, so the events stand for `streamEventsOf(response)`; a tool
 * input the response marks as cut off (`incompleteToolUse`) streams the JSON that arrived and no
 * `content_block_stop`, as the API does when `max_tokens` falls inside it. Assembled, the events give the
 * response back.
 */
export function sseEventsOf(response: ModelResponse): SseEvent[] {
  const { content, usage, incompleteToolUse, context_management, ...rest } = response as ModelResponse & {
    context_management?: unknown;
  };
  const message: Record<string, unknown> = { ...rest, content: [], stop_reason: null, stop_sequence: null, usage };
  const delta: Record<string, unknown> = {};
  for (const field of DELTA_FIELDS) {
    if (field in rest) delta[field] = (rest as Record<string, unknown>)[field];
    if (field !== 'stop_reason' && field !== 'stop_sequence') delete message[field];
  }
  delta.stop_reason ??= null;
  delta.stop_sequence ??= null;
  const events: SseEvent[] = [{ type: 'message_start', message }];
  content.forEach((block, index) => {
    events.push(...blockEvents(block, index, incompleteToolUse?.index === index ? incompleteToolUse : undefined));
  });
  events.push({
    type: 'message_delta',
    delta,
    usage,
    ...(context_management === undefined ? {} : { context_management }),
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** The events as the API frames them: an `event:` line naming the type, the JSON on a `data:` line, a blank line. */
export function sseText(events: readonly SseEvent[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

function blockEvents(block: ResponseBlock, index: number, cut: { partialJson: string } | undefined): SseEvent[] {
  const fields = block as Record<string, unknown>;
  const deltas: Record<string, unknown>[] = [];
  let start: Record<string, unknown> = { ...fields };
  if (block.type === 'text') {
    start = { ...fields, text: '' };
    if (Array.isArray(fields.citations)) {
      start.citations = [];
      for (const citation of fields.citations) deltas.push({ type: 'citations_delta', citation });
    }
    if (block.text !== '') deltas.push({ type: 'text_delta', text: block.text });
  } else if (block.type === 'thinking') {
    start = { ...fields, thinking: '', signature: '' };
    if (block.thinking !== '') deltas.push({ type: 'thinking_delta', thinking: block.thinking });
    deltas.push({ type: 'signature_delta', signature: block.signature });
  } else if (fields.type === 'compaction') {
    // The delta carries the block's final value; the start has its fields empty (null).
    const { type: _type, ...carried } = fields;
    start = { ...fields, ...Object.fromEntries(Object.keys(carried).map((key) => [key, null])) };
    deltas.push({ type: 'compaction_delta', ...carried });
  } else if ('input' in fields) {
    start = { ...fields, input: {} };
    const json = cut === undefined ? jsonText(fields.input) : cut.partialJson;
    if (json !== undefined && json !== '') deltas.push({ type: 'input_json_delta', partial_json: json });
  }
  return [
    { type: 'content_block_start', index, content_block: start },
    ...deltas.map((delta) => ({ type: 'content_block_delta', index, delta })),
    ...(cut === undefined ? [{ type: 'content_block_stop', index }] : []),
  ];
}
