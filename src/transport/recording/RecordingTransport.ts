import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import { copyThroughJson } from '../../json/jsonText.js';
import type { SendOptions, Transport } from '../transport.js';

/**
 * Passes every call through to another transport and keeps each completed exchange, so a
 * run can be written down afterwards. A call that fails or is cancelled keeps nothing.
 */
export class RecordingTransport implements Transport {
  readonly exchanges: { request: MessagesRequest; response: ModelResponse }[] = [];
  /** The recordings of model calls made inside tool calls (sub-agents), by tool_use id. */
  readonly children = new Map<string, RecordingTransport>();

  constructor(readonly inner: Transport) {}

  forToolCall(toolUseId: string): RecordingTransport {
    const child = new RecordingTransport(this.inner.forToolCall?.(toolUseId) ?? this.inner);
    this.children.set(toolUseId, child);
    return child;
  }

  async send(request: MessagesRequest, options?: SendOptions): Promise<ModelResponse> {
    // A JSON copy, not structuredClone: a model may send a tool input nested deeper than a recursive clone survives.
    const sent = copyThroughJson(request);
    const response = await this.inner.send(request, options);
    this.exchanges.push({ request: sent, response: copyThroughJson(response) });
    return response;
  }
}
