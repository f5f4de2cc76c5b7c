import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import type { SendOptions, Transport } from '../transport.js';

/**
 * Passes every call through to another transport and keeps each completed exchange, so a
 * run can be written down afterwards. A call that fails or is cancelled keeps nothing.
 */
export class RecordingTransport implements Transport {
  readonly exchanges: { request: MessagesRequest; response: ModelResponse }[] = [];

  constructor(readonly inner: Transport) {}

  async send(request: MessagesRequest, options?: SendOptions): Promise<ModelResponse> {
    const sent = structuredClone(request);
    const response = await this.inner.send(request, options);
    this.exchanges.push({ request: sent, response: structuredClone(response) });
    return response;
  }
}
