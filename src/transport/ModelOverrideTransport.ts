import type { MessagesRequest, ModelResponse } from '../messages/types.js';
import type { SendOptions, Transport } from './transport.js';

/**
 * Sends every request to another transport with its `model` replaced: the agent asks for the model it was built
 * with, and `model` answers. Model calls made inside tool calls (sub-agents) get the same model. What the agent
 * built is not changed, so a recording made around this transport (`legate rerecord --model`) records the requests
 * as the agent made them, and each response says which model answered.
 */
export class ModelOverrideTransport implements Transport {
  constructor(
    readonly inner: Transport,
    readonly model: string,
  ) {}

  send(request: MessagesRequest, options?: SendOptions): Promise<ModelResponse> {
    return this.inner.send({ ...request, model: this.model }, options);
  }

  forToolCall(toolUseId: string): Transport {
    return new ModelOverrideTransport(this.inner.forToolCall?.(toolUseId) ?? this.inner, this.model);
  }
}
