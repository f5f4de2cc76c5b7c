import { copyPlainData } from '../../json/copyPlainData.js';
import { jsonText } from '../../json/jsonText.js';
import type { MessagesRequest, ModelResponse, ResponseBlock } from '../../messages/types.js';
import { streamEventsOf } from '../streamEventsOf.js';
import type { SendOptions, Transport } from '../transport.js';
import type { ScriptedReply, ScriptedToolUse } from './scriptedReply.js';
import { checkDelivery, type StreamDelivery, sendStreamed } from './streamDelivery.js';
import { RequestCopies, type RequestCopy } from './requestCopies.js';
import { LegateError } from '../../errors/LegateError.js';
import { UsageError } from '../../errors/UsageError.js';

/** One step of a script: a reply, a full response, or a function of the request. */
export type ScriptStep =
  | ScriptedReply
  | ModelResponse
  | ((
      request: MessagesRequest,
      call: number,
    ) => ScriptedReply | ModelResponse | Promise<ScriptedReply | ModelResponse>);

export interface ScriptedTransportOptions {
  /**
   * Serve every response as the API streams it, through the real SDK's stream parser (`true`), or delivered as
   * this says (split at bytes, faults). A reply's own `stream` (see `reply.streamed`) takes precedence.
   */
  stream?: boolean | StreamDelivery;
}

/** The scripted model was called more often than it has steps. */
export class ScriptExhaustedError extends LegateError {
  readonly code = 'script_exhausted';
  /** Raised inside a sub-agent's tool call, it stops the whole run instead of failing the call. */
  override readonly abortsRun = true;
}

/** The script still had steps when the test asked whether it was done. */
export class ScriptNotDoneError extends LegateError {
  readonly code = 'script_not_done';
}

/**
 * A model for tests: serves a queue of responses (or answers with a function of the request),
 * records every request it received, and fills in what a real response has (ids, model,
 * usage) deterministically, so the same script gives the same run every time.
 */
export class ScriptedTransport implements Transport {
  /**
   * Every request received, as it was when sent. The requests of a conversation share the copy of each message
   * they have in common (a message sent never changes): read them, do not edit them.
   */
  readonly requests: MessagesRequest[] = [];
  readonly #copies = new RequestCopies();
  readonly #steps: ScriptStep[];
  readonly #stream: StreamDelivery | undefined;
  readonly #respond:
    | ((
        request: MessagesRequest,
        call: number,
      ) => ScriptedReply | ModelResponse | Promise<ScriptedReply | ModelResponse>)
    | undefined;

  constructor(
    script:
      | ScriptStep[]
      | ((
          request: MessagesRequest,
          call: number,
        ) => ScriptedReply | ModelResponse | Promise<ScriptedReply | ModelResponse>),
    options: ScriptedTransportOptions = {},
  ) {
    const { stream } = options;
    this.#stream = stream === undefined || stream === false ? undefined : stream === true ? {} : checkDelivery(stream);
    if (typeof script === 'function') {
      this.#steps = [];
      this.#respond = script;
    } else if (Array.isArray(script)) {
      this.#steps = [...script];
      this.#respond = undefined;
    } else {
      throw new UsageError(
        'invalid_script',
        'A ScriptedTransport needs a list of responses or a function of the request.',
      );
    }
  }

  /** Steps not yet served. */
  get remaining(): number {
    return this.#respond === undefined ? this.#steps.length - this.requests.length : 0;
  }

  async send(request: MessagesRequest, options: SendOptions = {}): Promise<ModelResponse> {
    options.signal?.throwIfAborted();
    const call = this.requests.length + 1;
    const received = this.#copies.copy(request);
    this.requests.push(received.copy);
    const step = this.#respond ?? this.#steps[call - 1];
    if (step === undefined) {
      const scripted = this.#steps.length;
      const responses = scripted === 1 ? 'response' : 'responses';
      throw new ScriptExhaustedError(
        `The scripted model was called ${call} times but its script has ${scripted} ${responses}. ` +
          `Add a response for call ${call}, or end the run sooner (the last message was ` +
          `${lastMessageSummary(request)}).`,
      );
    }
    const answer = typeof step === 'function' ? await step(request, call) : step;
    const response = isModelResponse(answer) ? copyPlainData(answer) : complete(answer, request.model, received, call);
    const delivery =
      isModelResponse(answer) || answer.stream === undefined ? this.#stream : checkDelivery(answer.stream);
    if (delivery !== undefined) return sendStreamed(response, delivery, request, options);
    if (options.onStreamEvent !== undefined) for (const event of streamEventsOf(response)) options.onStreamEvent(event);
    return response;
  }

  /** Throws unless every scripted response was served. */
  assertDone(): void {
    if (this.remaining > 0) {
      throw new ScriptNotDoneError(
        `The scripted model served ${this.requests.length} of ${this.#steps.length} responses; ` +
          `${this.remaining} were never asked for. ` +
          'The run ended sooner than the script expected.',
      );
    }
  }
}

function isModelResponse(value: ScriptedReply | ModelResponse): value is ModelResponse {
  return (value as ModelResponse).type === 'message';
}

/** Fills in ids, the model and usage, deterministically from the call number and the request. */
function complete(scripted: ScriptedReply, model: string, request: RequestCopy, call: number): ModelResponse {
  let toolIndex = 0;
  // One copy of the whole content, not one a block.
  const content = copyPlainData(scripted.content).map((block): ResponseBlock => {
    if (block.type !== 'tool_use') return block;
    toolIndex++;
    // Every field the script gave (a caller, a toolset name) is served; only a missing id is filled in.
    const { type, id, ...rest } = block as ScriptedToolUse;
    return { type, id: id ?? `toolu_s${call}_${toolIndex}`, ...rest };
  });
  return {
    id: `msg_scripted_${call}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: scripted.stopReason,
    stop_sequence: null,
    usage: scripted.usage ?? {
      input_tokens: tokensOf(request.jsonLength()),
      output_tokens: tokensOf(jsonText(content)?.length),
    },
  };
}

/** About four characters a token (of the JSON text's length): enough for usage figures to be plausible and stable. */
function tokensOf(jsonLength: number | undefined): number {
  return Math.max(1, Math.ceil((jsonLength ?? 0) / 4));
}

function lastMessageSummary(request: MessagesRequest): string {
  const last = request.messages[request.messages.length - 1];
  if (last === undefined) return 'none';
  if (typeof last.content === 'string') return `a ${last.role} message`;
  const types = last.content.map((b) => b.type).join(', ');
  return `a ${last.role} message with ${types}`;
}
