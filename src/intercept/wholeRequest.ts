import { sentBack } from '../messages/sentBack.js';
import type { Message, MessagesRequest, ModelResponse } from '../messages/types.js';

/**
 * Server-held conversation state, as the API calls it (a Thread; the SDK's tool runner uses one):
 * `thread: {type: 'create'}` asks the server to keep the conversation under the response's id;
 * `thread: {type: 'continue', previous_message_id}` resumes from that response, sending only the new
 * messages and leaving out `system` and `tools`, which the server keeps from the creating request.
 */
interface ThreadParam {
  type: string;
  previous_message_id?: string;
}

/** An answered request: the whole conversation it stood for, and the response it got. */
export interface Answered {
  request: MessagesRequest;
  response: ModelResponse;
}

/** The fields the server keeps from the request that created a thread; a `continue` leaves them out. */
const KEPT_BY_THE_THREAD = ['system', 'tools'] as const;

type WholeRequest = { ok: true; request: MessagesRequest } | { ok: false; previousMessageId: string };

/**
 * A request as the whole conversation it stands for, the form a recording compares and keeps. A request
 * that continues a thread stands for the request that got the response it continues from, then that
 * response as the assistant's message (as a client would send it back), then its own new messages; its
 * own fields win over the kept ones. Any other request stands for itself. `answered` finds the
 * response by id; when it knows none (a thread the recording never saw), the id comes back instead.
 */
export function wholeRequest(
  request: MessagesRequest,
  answered: (responseId: string) => Answered | undefined,
): WholeRequest {
  const thread = threadOf(request);
  if (thread?.type !== 'continue' || typeof thread.previous_message_id !== 'string') return { ok: true, request };
  const anchor = answered(thread.previous_message_id);
  if (anchor === undefined) return { ok: false, previousMessageId: thread.previous_message_id };
  const { thread: _continue, messages, ...own } = request as MessagesRequest & { thread?: ThreadParam };
  const kept: Partial<MessagesRequest> = {};
  for (const field of KEPT_BY_THE_THREAD)
    if (anchor.request[field] !== undefined) Object.assign(kept, { [field]: anchor.request[field] });
  const reply = sentBack(anchor.response);
  const history: Message[] = [
    ...anchor.request.messages,
    ...(reply === undefined ? [] : [{ role: 'assistant' as const, content: reply }]),
  ];
  const creating = threadOf(anchor.request);
  return {
    ok: true,
    request: {
      ...kept,
      ...own,
      ...(creating === undefined ? {} : { thread: creating }),
      messages: [...history, ...messages],
    } as MessagesRequest,
  };
}

function threadOf(request: MessagesRequest): ThreadParam | undefined {
  const thread = (request as { thread?: unknown }).thread;
  return typeof thread === 'object' && thread !== null ? (thread as ThreadParam) : undefined;
}
