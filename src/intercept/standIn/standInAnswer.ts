import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import type { SseEvent } from '../../transport/scripted/sseEvents.js';
import type { StreamDelivery } from '../../transport/scripted/streamDelivery.js';

/**
 * What the stand-in answers one Messages API request with: a response (with the events recorded for it, and how a
 * script asked for its stream to be delivered), or a refusal as the API words an error.
 */
export type StandInAnswer =
  | { ok: true; response: ModelResponse; events?: readonly SseEvent[]; delivery?: StreamDelivery }
  | { ok: false; status: number; type: string; message: string };

/** Where the stand-in's answers come from: a script, or a recording. */
export interface Answers {
  answer(request: MessagesRequest): Promise<StandInAnswer>;
}

/** A refusal the client must not retry: the request was understood, and the stand-in has nothing for it. */
export function refusal(message: string, status = 400, type = 'invalid_request_error'): StandInAnswer {
  return { ok: false, status, type, message };
}
