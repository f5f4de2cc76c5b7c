import type Anthropic from '@anthropic-ai/sdk';
import { pathBeyondDepth } from '../../json/jsonDepth.js';
import { formatJsonPath } from '../../json/jsonPath.js';
import type { MessagesRequest } from '../../messages/types.js';
import { TransportError } from '../transport.js';
import type { AnthropicSdk } from './anthropicSdk.js';

/** What a failure message says about the client's settings: where it sent, how often it retries, how long it waits. */
export interface ClientSettings {
  baseURL: string;
  apiKey: string | null;
  authToken: string | null;
  maxRetries: number;
  timeout: number;
}

/** HTTP statuses the SDK retries (with its back-off) before it gives up. */
const RETRIED_STATUSES = new Set([408, 409, 429]);

/**
 * A failure of the request, before any event of a response was read, as a {@link TransportError}: the API's
 * refusal (`api`), no connection (`connection`), or a request that was never sent (`request`: no key, too deep
 * to write). Anything else (an error of the caller's own code) is returned as it was. `Anthropic` is the SDK as
 * the transport loaded it: its error classes are the ones the client throws.
 */
export function requestFailure(
  Anthropic: AnthropicSdk,
  error: unknown,
  settings: ClientSettings,
  request: MessagesRequest,
): unknown {
  if (error instanceof RangeError || (error instanceof Anthropic.AnthropicError && error.cause instanceof RangeError))
    return tooDeepToSend(request, error);
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return new TransportError(
      `The Anthropic API did not answer within ${settings.timeout} ms (${retries(settings.maxRetries)}). ` +
        'Try again later, or give the transport a longer timeout (new AnthropicTransport({ timeout })).',
      undefined,
      undefined,
      { kind: 'connection', cause: error },
    );
  }
  if (error instanceof Anthropic.APIConnectionError) {
    const { baseURL } = settings;
    return new TransportError(
      `could not connect to ${baseURL} (ANTHROPIC_BASE_URL): ${deepestReason(error)}. Check that ` +
        'ANTHROPIC_BASE_URL names a server that is up and reachable from here ' +
        '(unset, it is https://api.anthropic.com).',
      undefined,
      undefined,
      { kind: 'connection', cause: error, code: 'connection_failed', setting: 'ANTHROPIC_BASE_URL', url: baseURL },
    );
  }
  if (error instanceof Anthropic.APIError) return apiFailure(error, settings);
  if (
    error instanceof Error &&
    settings.apiKey == null &&
    settings.authToken == null &&
    /authentication/i.test(error.message)
  ) {
    return new TransportError(
      'ANTHROPIC_API_KEY is not set: the Anthropic API needs a key, so no request was made. Set it ' +
        '(export ANTHROPIC_API_KEY=sk-ant-...), or give the transport a configured client: ' +
        'new AnthropicTransport({ client: new Anthropic({ apiKey }) }).',
      undefined,
      undefined,
      { kind: 'request', cause: error, code: 'missing_api_key', setting: 'ANTHROPIC_API_KEY' },
    );
  }
  if (error instanceof SyntaxError) return malformed(error, 'its JSON body does not parse');
  if (error instanceof Anthropic.AnthropicError) {
    // The SDK refused before sending: a setting it cannot use, a request it will only stream, ...
    return new TransportError(
      `The Anthropic SDK did not send the request: ${deepestReason(error)}.`,
      undefined,
      undefined,
      { kind: 'request', cause: error },
    );
  }
  if (brokenBody(error)) return dropped(error, undefined);
  return error;
}

/**
 * A body that broke while it was read: undici says `terminated`, with the socket's error as the cause. Other
 * TypeErrors (`JSON.stringify` on a value it cannot write: a cycle, a BigInt) are the caller's and pass through.
 */
function brokenBody(error: unknown): error is TypeError {
  return error instanceof TypeError && (error.message === 'terminated' || error.cause !== undefined);
}

/**
 * A failure while the events of a streamed response were being read: an `error` event (`api`), the
 * connection breaking (`connection`), an event that is not JSON (`stream`).
 */
export function readFailure(
  Anthropic: AnthropicSdk,
  error: unknown,
  settings: ClientSettings,
  events: number,
): TransportError {
  if (error instanceof TransportError) return error;
  if (error instanceof Anthropic.APIError) return apiFailure(error, settings);
  if (error instanceof SyntaxError) return malformed(error, `event ${events + 1} is not JSON`);
  return dropped(error, events);
}

function apiFailure(error: InstanceType<typeof Anthropic.APIError>, settings: ClientSettings): TransportError {
  const type = error.type ?? errorTypeOf(error.error) ?? undefined;
  const status = error.status;
  const detail = error.apiMessage ?? error.message;
  const requestId = requestIdOf(error.error) ?? error.requestID;
  const said = type === undefined ? '' : ` (${type})`;
  const advice =
    status === undefined
      ? ' A stream that has begun is not retried: send the request again.'
      : RETRIED_STATUSES.has(status) || status >= 500
        ? ` The SDK gave up (${retries(settings.maxRetries)}): try again later, or let it retry more ` +
          '(new AnthropicTransport({ maxRetries })).'
        : '';
  const stop = advice === '' || /[.!?]$/.test(detail) ? '' : '.';
  const where = status === undefined ? 'mid-stream' : `with HTTP ${status}`;
  return new TransportError(`The Anthropic API failed ${where}${said}: ${detail}${stop}${advice}`, status, type, {
    kind: 'api',
    cause: error,
    ...(requestId == null ? {} : { requestId }),
  });
}

function dropped(error: unknown, events: number | undefined): TransportError {
  const when = events === undefined ? 'while its answer was read' : `mid-stream, after ${events} events`;
  const reason = error instanceof Error ? deepestReason(error) : String(error);
  return new TransportError(
    `The connection to the Anthropic API broke ${when}: ${reason}. Nothing of this response was used; ` +
      'send the request again.',
    undefined,
    undefined,
    { kind: 'connection', cause: error },
  );
}

function malformed(error: SyntaxError, what: string): TransportError {
  return new TransportError(
    `The Anthropic API's answer is not a whole message: ${what} (${error.message}). Nothing of this response ` +
      'was used; send the request again.',
    undefined,
    undefined,
    { kind: 'stream', cause: error },
  );
}

function retries(maxRetries: number): string {
  return maxRetries === 0 ? 'it was not retried: maxRetries is 0' : `after up to ${maxRetries} retries`;
}

/** The innermost cause's message (`connect ECONNREFUSED 127.0.0.1:9`), on one line, without a final full stop. */
function deepestReason(error: Error): string {
  let deepest: Error = error;
  while (deepest.cause instanceof Error) deepest = deepest.cause;
  return deepest.message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '');
}

/** How many levels into the request a too-deep place is named from: enough to reach the block that holds it. */
const NAMED_LEVELS = 100;

/**
 * The SDK writes the request with JSON.stringify, which recurses: a conversation holding a value
 * nested thousands deep (a tool input the binder refused as too_deep stays in the conversation,
 * as the model sent it) cannot be sent. Said as a TransportError naming the block, not a raw RangeError.
 */
function tooDeepToSend(request: MessagesRequest, error: unknown): TransportError {
  const path = pathBeyondDepth(request, NAMED_LEVELS);
  const where = path === undefined ? '' : ` at ${formatJsonPath(path.slice(0, 5))}`;
  return new TransportError(
    `The request could not be written as JSON for the Anthropic API: it nests deeper than the SDK's ` +
      `JSON.stringify can write${where}, so the API was not called. ` +
      'A tool_use input the binder refused as too deep stays in the conversation as the model sent it; ' +
      'continue in a new conversation without that turn.',
    undefined,
    undefined,
    { kind: 'request', cause: error },
  );
}

/** The API's error body: `{ type: 'error', error: { type, message }, request_id }`. */
function errorTypeOf(body: unknown): string | undefined {
  const inner = (body as { error?: { type?: unknown } } | undefined)?.error;
  return typeof inner?.type === 'string' ? inner.type : undefined;
}

function requestIdOf(body: unknown): string | undefined {
  const id = (body as { request_id?: unknown } | undefined)?.request_id;
  return typeof id === 'string' ? id : undefined;
}
