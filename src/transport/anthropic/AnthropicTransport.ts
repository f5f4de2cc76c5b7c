import Anthropic from '@anthropic-ai/sdk';
import { pathBeyondDepth } from '../../json/jsonDepth.js';
import { formatJsonPath } from '../../json/jsonPath.js';
import { parseModelResponse } from '../../messages/parseModelResponse.js';
import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import { TransportError, type SendOptions, type StreamEvent, type Transport } from '../transport.js';

export interface AnthropicTransportOptions {
  /** A configured client; by default one is made from the environment (ANTHROPIC_API_KEY). */
  client?: Anthropic;
  /**
   * Stream each response (the default): long turns do not hit the HTTP timeout, and text
   * arrives as it is written. With false, each turn is one JSON request.
   */
  stream?: boolean;
}

type MessageStreamEvent = Anthropic.Messages.MessageStreamEvent;

/**
 * The live model, through `@anthropic-ai/sdk`. The SDK handles authentication, retries
 * (a 529 overloaded answer is retried) and the SSE protocol; this transport maps its
 * result onto legate's exact response shape and its failures onto {@link TransportError}.
 */
export class AnthropicTransport implements Transport {
  readonly client: Anthropic;
  readonly #stream: boolean;

  constructor(options: AnthropicTransportOptions = {}) {
    this.client = options.client ?? new Anthropic();
    this.#stream = options.stream ?? true;
  }

  async send(request: MessagesRequest, options: SendOptions = {}): Promise<ModelResponse> {
    const { signal, onStreamEvent } = options;
    try {
      const message = this.#stream
        ? await this.#streamed(request, signal, onStreamEvent)
        : await this.client.messages.create(
            { ...request, stream: false } as Anthropic.Messages.MessageCreateParamsNonStreaming,
            { signal },
          );
      return parseModelResponse(message, 'The Anthropic API');
    } catch (error) {
      // A cancelled run is not a transport failure: surface the caller's own abort reason.
      if (signal?.aborted) throw signal.reason;
      if (
        error instanceof RangeError ||
        (error instanceof Anthropic.AnthropicError && error.cause instanceof RangeError)
      )
        throw tooDeepToSend(request, error);
      throw this.#settingError(error) ?? toTransportError(error);
    }
  }

  /**
   * A failure that comes from a setting, said as the setting to check: no key (the SDK refuses before any
   * request), or no server at the URL (the connection was refused, the name did not resolve, ...).
   */
  #settingError(error: unknown): TransportError | undefined {
    const { apiKey, authToken, baseURL } = this.client;
    if (
      error instanceof Error &&
      !(error instanceof Anthropic.APIError) &&
      apiKey == null &&
      authToken == null &&
      /authentication/i.test(error.message)
    ) {
      return new TransportError(
        'ANTHROPIC_API_KEY is not set: the Anthropic API needs a key, so no request was made. Set it ' +
          '(export ANTHROPIC_API_KEY=sk-ant-...), or give the transport a configured client: ' +
          'new AnthropicTransport({ client: new Anthropic({ apiKey }) }).',
        undefined,
        undefined,
        { cause: error, code: 'missing_api_key', setting: 'ANTHROPIC_API_KEY' },
      );
    }
    if (error instanceof Anthropic.APIConnectionError && !(error instanceof Anthropic.APIConnectionTimeoutError)) {
      return new TransportError(
        `could not connect to ${baseURL} (ANTHROPIC_BASE_URL): ${deepestReason(error)}. Check that ` +
          'ANTHROPIC_BASE_URL names a server that is up and reachable from here ' +
          '(unset, it is https://api.anthropic.com).',
        undefined,
        undefined,
        { cause: error, code: 'connection_failed', setting: 'ANTHROPIC_BASE_URL', url: baseURL },
      );
    }
    return undefined;
  }

  async #streamed(
    request: MessagesRequest,
    signal: AbortSignal | undefined,
    onStreamEvent: ((event: StreamEvent) => void) | undefined,
  ): Promise<unknown> {
    const stream = this.client.messages.stream(request as Anthropic.Messages.MessageStreamParams, { signal });
    if (onStreamEvent !== undefined) {
      stream.on('streamEvent', (event: MessageStreamEvent) => {
        const mapped = toStreamEvent(event);
        if (mapped !== undefined) onStreamEvent(mapped);
      });
    }
    return stream.finalMessage();
  }
}

/** The innermost cause's message (`connect ECONNREFUSED 127.0.0.1:9`), on one line, without a final full stop. */
function deepestReason(error: Error): string {
  let deepest: Error = error;
  while (deepest.cause instanceof Error) deepest = deepest.cause;
  return deepest.message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '');
}

function toStreamEvent(event: MessageStreamEvent): StreamEvent | undefined {
  if (event.type !== 'content_block_delta') return undefined;
  const { delta, index } = event;
  switch (delta.type) {
    case 'text_delta':
      return { type: 'text_delta', index, text: delta.text };
    case 'thinking_delta':
      return { type: 'thinking_delta', index, thinking: delta.thinking };
    case 'input_json_delta':
      return { type: 'input_json_delta', index, partialJson: delta.partial_json };
    default:
      return undefined;
  }
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
    { cause: error },
  );
}

function toTransportError(error: unknown): unknown {
  if (!(error instanceof Anthropic.APIError)) return error;
  const type = error.type ?? errorTypeOf(error.error);
  const status = error.status;
  const where = status === undefined ? 'mid-stream' : `with HTTP ${status}`;
  const detail = error.apiMessage ?? error.message;
  return new TransportError(
    `The Anthropic API failed ${where}${type ? ` (${type})` : ''}: ${detail}`,
    status,
    type ?? undefined,
    { cause: error },
  );
}

/** The API's error body: `{ type: 'error', error: { type, message } }`. */
function errorTypeOf(body: unknown): string | undefined {
  const inner = (body as { error?: { type?: unknown } } | undefined)?.error;
  return typeof inner?.type === 'string' ? inner.type : undefined;
}
