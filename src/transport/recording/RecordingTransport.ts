import type { Message, MessagesRequest, ModelResponse } from '../../messages/types.js';
import { copyThroughJson } from '../../json/jsonText.js';
import { isPlain, KnownMessages } from '../knownMessages.js';
import type { SendOptions, Transport } from '../transport.js';

/**
 * Passes every call through to another transport and keeps each completed exchange, so a
 * run can be written down afterwards. A call that fails or is cancelled keeps nothing.
 */
export class RecordingTransport implements Transport {
  readonly exchanges: { request: MessagesRequest; response: ModelResponse }[] = [];
  /** The recordings of model calls made inside tool calls (sub-agents), by tool_use id. */
  readonly children = new Map<string, RecordingTransport>();
  /** Each message's copy, made once: the requests of a run share their messages' copies (see KnownMessages). */
  readonly #copies = new KnownMessages<Message>();

  constructor(readonly inner: Transport) {}

  forToolCall(toolUseId: string): RecordingTransport {
    const child = new RecordingTransport(this.inner.forToolCall?.(toolUseId) ?? this.inner);
    this.children.set(toolUseId, child);
    return child;
  }

  async send(request: MessagesRequest, options?: SendOptions): Promise<ModelResponse> {
    // A JSON copy, not structuredClone: a model may send a tool input nested deeper than a recursive clone survives.
    const sent = this.#copy(request);
    const response = await this.inner.send(request, options);
    this.exchanges.push({ request: sent, response: copyThroughJson(response) });
    return response;
  }

  /**
   * `copyThroughJson(request)`, made a message at a time: a message copied for an earlier request (the same object,
   * unchanged) is not copied again, so a recording costs the conversation's length, not its square.
   */
  #copy(request: MessagesRequest): MessagesRequest {
    const { messages } = request;
    if (!isPlain(request) || !Array.isArray(messages)) return copyThroughJson(request);
    const copies: Message[] = [];
    for (const [place, message] of messages.entries()) {
      const known = this.#copies.get(message, place);
      if (known !== undefined) copies.push(known);
      else if (isPlain(message)) copies.push(this.#copies.set(message, copyThroughJson(message), place));
      else return copyThroughJson(request);
    }
    const sent: MessagesRequest = copyThroughJson({ ...request, messages: [] as Message[] });
    sent.messages = copies;
    return sent;
  }
}
