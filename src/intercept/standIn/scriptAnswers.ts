import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import {
  ScriptedTransport,
  ScriptExhaustedError,
  type ScriptStep,
} from '../../transport/scripted/ScriptedTransport.js';
import type { ScriptedReply } from '../../transport/scripted/scriptedReply.js';
import { checkDelivery, type StreamDelivery } from '../../transport/scripted/streamDelivery.js';
import { type Answers, refusal } from './standInAnswer.js';

/**
 * A script's answers, one step a request in the order they arrive, completed as ScriptedTransport completes them
 * (ids from the call number, the request's model, usage estimated unless the step gives it). A step's stream
 * delivery (`reply.streamed`) is kept for the HTTP body, not played through the SDK here.
 */
export function scriptAnswers(steps: readonly ScriptStep[]): Answers {
  const deliveries = new Map<number, StreamDelivery>();
  const served = steps.map(
    (step) =>
      async (request: MessagesRequest, call: number): Promise<ScriptedReply | ModelResponse> => {
        const answer = typeof step === 'function' ? await step(request, call) : step;
        if (!('stream' in answer) || answer.stream === undefined) return answer;
        const { stream, ...whole } = answer;
        deliveries.set(call, checkDelivery(stream));
        return whole;
      },
  );
  const transport = new ScriptedTransport(served);
  return {
    async answer(request) {
      const call = transport.requests.length + 1;
      try {
        const response = await transport.send(request);
        const delivery = deliveries.get(call);
        return { ok: true, response, ...(delivery === undefined ? {} : { delivery }) };
      } catch (error) {
        if (error instanceof ScriptExhaustedError)
          return refusal(`The stand-in has no response left for this request. ${error.message}`);
        const reason = error instanceof Error ? error.message : String(error);
        return refusal(`The stand-in's script failed on call ${call}: ${reason}`, 500, 'api_error');
      }
    },
  };
}
