import Anthropic from '@anthropic-ai/sdk';
import { UsageError } from '../../errors/UsageError.js';
import { describeValue } from '../../json/describeValue.js';
import { parseModelResponse } from '../../messages/parseModelResponse.js';
import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import type { SendOptions, Transport } from '../transport.js';
import { type ClientSettings, readFailure, requestFailure } from './anthropicFailure.js';
import { MessageAssembler } from './MessageAssembler.js';

type Params = Anthropic.Messages.MessageCreateParams;
type Streaming = Anthropic.Messages.MessageCreateParamsStreaming;
type NonStreaming = Anthropic.Messages.MessageCreateParamsNonStreaming;

export interface AnthropicTransportOptions {
  /** A configured client; by default one is made from the environment (ANTHROPIC_API_KEY). */
  client?: Anthropic;
  /**
   * Stream each response (the default): long turns do not hit the HTTP timeout, and text
   * arrives as it is written. With false, each turn is one JSON request.
   */
  stream?: boolean;
  /**
   * How often the SDK retries a request the API refused for a reason that passes (408, 409, 429, 5xx,
   * 529 overloaded) or that could not connect, with its back-off; default the client's (2). A stream that has
   * begun is never retried.
   */
  maxRetries?: number;
  /** How long, in ms, each attempt waits for the API to start answering; default the client's (10 minutes). */
  timeout?: number;
}

/**
 * The live model, through `@anthropic-ai/sdk`. The SDK handles authentication, retries and the SSE
 * protocol; this transport assembles the streamed events into the message the API sent (checking their
 * order), maps them onto legate's response shape and its failures onto {@link TransportError}
 * with a `kind`: `api`, `connection`, `stream` or `request`.
 */
export class AnthropicTransport implements Transport {
  readonly client: Anthropic;
  readonly #stream: boolean;
  readonly #retry: { maxRetries?: number; timeout?: number };

  constructor(options: AnthropicTransportOptions = {}) {
    checkOptions(options);
    const { maxRetries, timeout } = options;
    this.#retry = {
      ...(maxRetries === undefined ? {} : { maxRetries }),
      ...(timeout === undefined ? {} : { timeout }),
    };
    this.client = options.client ?? new Anthropic(this.#retry);
    this.#stream = options.stream ?? true;
  }

  async send(request: MessagesRequest, options: SendOptions = {}): Promise<ModelResponse> {
    const settings = this.#settings();
    const message = this.#stream
      ? await this.#streamed(request, options, settings)
      : await this.#call(request, options, settings, (params, sdkOptions) =>
          this.client.messages.create({ ...params, stream: false } as NonStreaming, sdkOptions),
        );
    return parseModelResponse(message, 'The Anthropic API');
  }

  /** One SDK call, its failures said as a TransportError (a cancelled run rejects with the caller's own reason). */
  async #call<T>(
    request: MessagesRequest,
    { signal }: SendOptions,
    settings: ClientSettings,
    call: (params: Params, options: Anthropic.RequestOptions) => Promise<T>,
  ): Promise<T> {
    try {
      return await call(request as Params, { signal, ...this.#retry });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw requestFailure(error, settings, request);
    }
  }

  #settings(): ClientSettings {
    const { baseURL, apiKey, authToken } = this.client;
    return {
      baseURL,
      apiKey,
      authToken,
      maxRetries: this.#retry.maxRetries ?? this.client.maxRetries,
      timeout: this.#retry.timeout ?? this.client.timeout,
    };
  }

  /**
   * Reads the events of a streamed response through the SDK's SSE parser and assembles them. A failure while
   * reading is said here, where it is known to be the stream's; an observer's own error passes through as it is.
   */
  async #streamed(request: MessagesRequest, options: SendOptions, settings: ClientSettings): Promise<unknown> {
    const { signal, onStreamEvent } = options;
    const stream = await this.#call(request, options, settings, (params, sdkOptions) =>
      this.client.messages.create({ ...params, stream: true } as Streaming, sdkOptions),
    );
    const events = stream[Symbol.asyncIterator]();
    const assembler = new MessageAssembler();
    const cancelled = cancellation(signal);
    let read = 0;
    let done = false;
    try {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = await (cancelled === undefined ? events.next() : Promise.race([events.next(), cancelled.promise]));
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          throw readFailure(error, settings, read);
        }
        if (next.done === true) break;
        read++;
        for (const event of assembler.add(next.value)) onStreamEvent?.(event);
      }
      if (signal?.aborted) throw signal.reason;
      done = true;
      return assembler.finish();
    } finally {
      cancelled?.release();
      // Stopped early (cancelled, a broken stream, an observer that threw): close the connection.
      if (!done) stream.controller.abort();
    }
  }
}

/**
 * A promise that rejects with the signal's reason once it aborts: a cancelled run stops waiting for the next
 * event at once, whatever the body does with the cancellation.
 */
function cancellation(signal: AbortSignal | undefined): { promise: Promise<never>; release: () => void } | undefined {
  if (signal === undefined) return undefined;
  let onAbort = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {}); // read by the race; never an unhandled rejection
  return { promise, release: () => signal.removeEventListener('abort', onAbort) };
}

const OPTION_KEYS = new Set(['client', 'stream', 'maxRetries', 'timeout']);

function checkOptions(options: AnthropicTransportOptions): void {
  const fail = (what: string): never => {
    throw new UsageError(
      'invalid_transport_option',
      `An AnthropicTransport ${what}. It takes client (an Anthropic client), stream (true or false), ` +
        'maxRetries (a whole number of retries, 0 for none) and timeout (a whole number of milliseconds, at least 1).',
    );
  };
  if (options === null || typeof options !== 'object') fail(`was given ${describeValue(options)} as its options`);
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) fail(`has no option "${key}"`);
  const { stream, maxRetries, timeout } = options;
  if (stream !== undefined && typeof stream !== 'boolean') fail(`was given stream ${describeValue(stream)}`);
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && maxRetries >= 0))
    fail(`was given maxRetries ${describeValue(maxRetries)}`);
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && timeout >= 1))
    fail(`was given timeout ${describeValue(timeout)}`);
}
