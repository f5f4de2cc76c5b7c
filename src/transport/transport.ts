import type { MessagesRequest, ModelResponse } from '../messages/types.js';
import { LegateError } from '../errors/LegateError.js';

/**
 * Partial output as it streams, for observers; the response itself is what `send` resolves to.
 * Per content block: `block_start` (its type, and the id and name of a tool call), the deltas that
 * carry its text, thinking or tool input as they arrive, then `block_stop`. A tool input cut off by
 * `max_tokens` gets no `block_stop`: its `input_json_delta`s are all that arrived. Blocks that arrive
 * whole (server tool results, redacted thinking) have no deltas; signatures and citations are in the
 * response, not in events. A transport without real streaming emits the canonical sequence,
 * `streamEventsOf(response)`: each block's whole text, thinking or input in one delta.
 */
export type StreamEvent =
  | { type: 'block_start'; index: number; block: { type: string; id?: string; name?: string } }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; thinking: string }
  | { type: 'input_json_delta'; index: number; partialJson: string }
  | { type: 'block_stop'; index: number };

export interface SendOptions {
  /** Aborted when the run is cancelled. */
  signal?: AbortSignal;
  /** Called for each piece of partial output, where the transport streams. */
  onStreamEvent?: (event: StreamEvent) => void;
}

/**
 * Where model responses come from: the Anthropic API, a scripted model, a recording.
 * One call: a Messages API request in, the assistant's response message out. The runtime
 * checks what comes back, so a transport of your own cannot hand the loop a malformed answer.
 */
export interface Transport {
  send(request: MessagesRequest, options?: SendOptions): Promise<ModelResponse>;
  /**
   * `false` when the transport reads a request only while its `send` runs and keeps nothing of it afterwards (no
   * reference to the request or its message list): the runtime then passes the conversation's own message list,
   * which grows after the call, instead of a copy of it per call; a copy costs the conversation's length on every
   * turn (a 20,000-message list is 160 KB). Unset, each request holds a list of its own, which a transport may keep.
   */
  readonly keepsRequests?: boolean;
  /**
   * The transport for model calls made inside one tool call (a sub-agent's conversation), where
   * this transport keeps them apart: a recording nests them under the call, a replay serves
   * them from there. Without it, a sub-agent uses its own transport.
   */
  forToolCall?(toolUseId: string): Transport;
}

/** Whether a value can serve as a transport: an object with a `send` method. */
export function isTransport(value: unknown): value is Transport {
  return typeof value === 'object' && value !== null && typeof (value as { send?: unknown }).send === 'function';
}

/**
 * Why a transport call failed: `transport_failed` (the API refused, the connection broke, the stream broke or
 * reported an error), `missing_api_key` (no key is set, so no request was made), `connection_failed` (nothing
 * answered at the URL).
 */
export type TransportErrorCode = 'transport_failed' | 'missing_api_key' | 'connection_failed';

/**
 * Where a transport call failed, for a caller deciding what to do:
 * - `api`: the API answered with an error (`status` and `errorType`: 429 `rate_limit_error`, 529
 *   `overloaded_error`, 400 `invalid_request_error`, ...), as an HTTP status or as an `error` event in the
 *   middle of a stream (then `status` is undefined). Retry later when the type says so; otherwise fix the request.
 * - `connection`: no answer, or the answer stopped: refused, reset, timed out, a name that did not resolve,
 *   a connection dropped in the middle of a stream.
 * - `stream`: the stream arrived but is not a whole message: it ended before `message_stop`, an event is not
 *   JSON, events came out of order, a delta names a block that is not open, a delta type legate cannot assemble.
 * - `request`: the request was never sent: no API key, or a request the SDK cannot write as JSON.
 */
export type TransportErrorKind = 'api' | 'connection' | 'stream' | 'request';

/** The environment variable that sets what a failure points at. */
export type TransportSetting = 'ANTHROPIC_API_KEY' | 'ANTHROPIC_BASE_URL';

/** A transport call failed (the API refused, the connection broke, the stream broke or reported an error). */
export class TransportError extends LegateError {
  readonly code: TransportErrorCode;
  /** Where it failed: the API, the connection, the stream, or before the request was sent. */
  readonly kind: TransportErrorKind;
  /** For `missing_api_key` and `connection_failed`: the setting to check. */
  readonly setting: TransportSetting | undefined;
  /** For `connection_failed`: the URL nothing answered at. */
  readonly url: string | undefined;
  /** The API's id of the request (`request-id` header, or `request_id` in an error event), where it gave one. */
  readonly requestId: string | undefined;
  constructor(
    message: string,
    /** The HTTP status, where there was one. */
    readonly status: number | undefined,
    /** The API's error type, e.g. `overloaded_error`, where it gave one. */
    readonly errorType: string | undefined,
    options: {
      kind: TransportErrorKind;
      cause?: unknown;
      code?: TransportErrorCode;
      setting?: TransportSetting;
      url?: string;
      requestId?: string;
    },
  ) {
    super(message, options);
    this.kind = options.kind;
    this.code = options.code ?? 'transport_failed';
    this.setting = options.setting;
    this.url = options.url;
    this.requestId = options.requestId;
  }
}
