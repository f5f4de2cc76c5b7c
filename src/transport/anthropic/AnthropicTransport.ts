import type Anthropic from '@anthropic-ai/sdk';
import { UsageError } from '../../errors/UsageError.js';
import { describeValue } from '../../json/describeValue.js';
import { parseModelResponse } from '../../messages/parseModelResponse.js';
import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import type { SendOptions, Transport } from '../transport.js';
import { type ClientSettings, readFailure, requestFailure } from './anthropicFailure.js';
import { type AnthropicSdk, loadAnthropicSdk } from './anthropicSdk.js';
import { MessageAssembler } from './MessageAssembler.js';

type Params = Anthropic.Messages.MessageCreateParams;
type Streaming = Anthropic.Messages.MessageCreateParamsStreaming;
type NonStreaming = Anthropic.Messages.MessageCreateParamsNonStreaming;

export interface AnthropicTransportOptions {
  /** A configured client; by default one is made from the environment (ANTHROPIC_API_KEY) on the first send. */
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
 * with a `kind`: `api`, `connection`, `stream` or `request`. The SDK is loaded on the first send, not
 * when legate is imported.
 */
export class AnthropicTransport implements Transport {
  #client: Anthropic | undefined;
  readonly #stream: boolean;
  readonly #retry: { maxRetries?: number; timeout?: number };

  constructor(options: AnthropicTransportOptions = {}) {
    checkOptions(options);
    const { maxRetries, timeout } = options;
    this.#retry = {
      ...(maxRetries === undefined ? {} : { maxRetries }),
      ...(timeout === undefined ? {} : { timeout }),
    };
    this.#client = options.client;
    this.#stream = options.stream ?? true;
  }

  /**
   * The SDK client it sends with: the one it was given (that very instance), else the one it makes from the
   * environment, with its `maxRetries` and `timeout`, on the first send (until then, undefined).
   */
  get client(): Anthropic | undefined {
    return this.#client;
  }

  async send(request: MessagesRequest, options: SendOptions = {}): Promise<ModelResponse> {
    const sdk = await loadAnthropicSdk();
    this.#client ??= new sdk(this.#retry);
    const client = this.#client;
    const sending: Sending = { sdk, client, settings: this.#settings(client) };
    const message = this.#stream
      ? await this.#streamed(request, options, sending)
      : await this.#call(request, options, sending, (params, sdkOptions) =>
          client.messages.create({ ...params, stream: false } as NonStreaming, sdkOptions),
        );
    return parseModelResponse(message, 'The Anthropic API');
  }

  /** One SDK call, its failures said as a TransportError (a cancelled run rejects with the caller's own reason). */
  async #call<T>(
    request: MessagesRequest,
    { signal }: SendOptions,
    { sdk, settings }: Sending,
    call: (params: Params, options: Anthropic.RequestOptions) => Promise<T>,
  ): Promise<T> {
    try {
      return await call(request as Params, { signal, ...this.#retry });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw requestFailure(sdk, error, settings, request);
    }
  }

  #settings(client: Anthropic): ClientSettings {
    const { baseURL, apiKey, authToken } = client;
    return {
      baseURL,
      apiKey,
      authToken,
      maxRetries: this.#retry.maxRetries ?? client.maxRetries,
      timeout: this.#retry.timeout ?? client.timeout,
    };
  }

  /**
   * Reads the events of a streamed response through the SDK's SSE parser and assembles them. A failure while
   * reading is said here, where it is known to be the stream's; an observer's own error passes through as it is.
   */
  async #streamed(request: MessagesRequest, options: SendOptions, sending: Sending): Promise<unknown> {
    const { signal, onStreamEvent } = options;
    const stream = await this.#call(request, options, sending, (params, sdkOptions) =>
      sending.client.messages.create({ ...params, stream: true } as Streaming, sdkOptions),
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
          throw readFailure(sending.sdk, error, sending.settings, read);
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

/** One send: the SDK as loaded (its error classes say what failed), the client, and its settings. */
interface Sending {
  sdk: AnthropicSdk;
  client: Anthropic;
  settings: ClientSettings;
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
