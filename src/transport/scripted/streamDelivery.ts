import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import { UsageError } from '../../errors/UsageError.js';
import { AnthropicTransport } from '../anthropic/AnthropicTransport.js';
import { loadAnthropicSdk } from '../anthropic/anthropicSdk.js';
import type { SendOptions } from '../transport.js';
import { type SseEvent, sseEventsOf, sseText } from './sseEvents.js';

/**
 * How a scripted response is delivered as a stream, and what goes wrong on the way. The response is rendered
 * as the API's server-sent events and read by the real SDK's stream parser and the Anthropic transport, so a
 * fault surfaces exactly as it would from the API: a `TransportError` of kind `api`, `connection` or `stream`.
 */
export interface StreamDelivery {
  /** Byte offsets at which the body is cut into chunks, as a network may deliver it (inside a UTF-8 character too). */
  splitAt?: readonly number[];
  /** After this many events of the response, the API reports an `error` event and the stream ends (kind `api`). */
  errorAfterEvents?: number;
  /** The error the `error` event reports; by default `overloaded_error`, `Overloaded`, as the API sends it. */
  error?: { type: string; message: string };
  /** After this many events the stream ends, cleanly but early: no `message_stop` (kind `stream`). */
  endAfterEvents?: number;
  /** After this many bytes of the body the connection drops (kind `connection`). */
  dropAfterBytes?: number;
}

const DELIVERY_KEYS = new Set(['splitAt', 'errorAfterEvents', 'error', 'endAfterEvents', 'dropAfterBytes']);

/**
 * Serves `response` to `request` as a stream delivered as `delivery` says, through the SDK (loaded on the first
 * stream delivered), with no network.
 */
export async function sendStreamed(
  response: ModelResponse,
  delivery: StreamDelivery,
  request: MessagesRequest,
  options: SendOptions,
): Promise<ModelResponse> {
  const bytes = new TextEncoder().encode(sseText(deliveredEvents(sseEventsOf(response), delivery)));
  const Anthropic = await loadAnthropicSdk();
  const client = new Anthropic({
    apiKey: 'scripted',
    baseURL: 'http://scripted.invalid',
    maxRetries: 0,
    fetch: async () =>
      new Response(deliveredBody(bytes, delivery), {
        headers: { 'content-type': 'text/event-stream', 'request-id': 'req_scripted' },
      }),
  });
  return new AnthropicTransport({ client }).send(request, options);
}

/** Checks a delivery as a test wrote it: every count a whole number, every split inside the body. */
export function checkDelivery(delivery: unknown): StreamDelivery {
  const fail = (what: string): never => {
    throw new UsageError(
      'invalid_script',
      `A scripted stream delivery ${what}. It takes splitAt (byte offsets), errorAfterEvents (with error: ` +
        '{ type, message }), endAfterEvents and dropAfterBytes (whole numbers of at least 0).',
    );
  };
  if (delivery === null || typeof delivery !== 'object' || Array.isArray(delivery)) return fail('is not an object');
  const given = delivery as Record<string, unknown>;
  for (const key of Object.keys(given)) if (!DELIVERY_KEYS.has(key)) fail(`has an unknown key "${key}"`);
  for (const key of ['errorAfterEvents', 'endAfterEvents', 'dropAfterBytes']) {
    const n = given[key];
    if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0)) fail(`has ${key} ${JSON.stringify(n)}`);
  }
  const { splitAt, error } = given;
  if (splitAt !== undefined && !(Array.isArray(splitAt) && splitAt.every((n) => Number.isInteger(n) && n >= 0)))
    fail(`has splitAt ${JSON.stringify(splitAt)}, not a list of byte offsets`);
  if (
    error !== undefined &&
    !(
      error !== null &&
      typeof error === 'object' &&
      ['type', 'message'].every((k) => typeof (error as never)[k] === 'string')
    )
  )
    fail(`has error ${JSON.stringify(error)}, not { type, message }`);
  return given as StreamDelivery;
}

/** The events a delivery sends: all of them, or those before an `error` event in place of the rest, or fewer. */
export function deliveredEvents(events: readonly SseEvent[], delivery: StreamDelivery): SseEvent[] {
  const { errorAfterEvents, endAfterEvents, error } = delivery;
  if (errorAfterEvents !== undefined) {
    const reported = error ?? { type: 'overloaded_error', message: 'Overloaded' };
    return [...events.slice(0, errorAfterEvents), { type: 'error', error: reported }];
  }
  return events.slice(0, endAfterEvents ?? events.length);
}

/** The bytes as a body, in the chunks `splitAt` cuts, dropping the connection after `dropAfterBytes`. */
export function deliveredBody(bytes: Uint8Array, delivery: StreamDelivery): ReadableStream<Uint8Array> {
  const end = Math.min(delivery.dropAfterBytes ?? bytes.length, bytes.length);
  const cuts = [...new Set((delivery.splitAt ?? []).filter((at) => at > 0 && at < end))].sort((a, b) => a - b);
  const edges = [0, ...cuts, end];
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < edges.length - 1) {
        controller.enqueue(bytes.slice(edges[next]!, edges[next + 1]!));
        next++;
      } else if (delivery.dropAfterBytes !== undefined && delivery.dropAfterBytes < bytes.length) {
        // As undici reports a socket the other side closed.
        controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
      } else controller.close();
    },
  });
}
