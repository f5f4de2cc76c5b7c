import { firstDifference } from '../json/firstDifference.js';
import { sentBack } from '../messages/sentBack.js';
import type { MessagesRequest } from '../messages/types.js';
import { UsageError } from '../errors/UsageError.js';
import type { Exchange } from './exchange.js';
import { wholeRequest, type Answered } from './wholeRequest.js';

/**
 * Intercepted exchanges, in the order their requests were sent, sorted into conversations: each
 * request (made whole where it continues a server-held thread) joins the conversation whose last
 * request it continues, the one that sent that request's messages back with its response (and the
 * answers to its calls); any other request starts a conversation. Two clients, or requests sent
 * concurrently, so come apart; within a conversation, order is the order of sending. Each exchange
 * comes back with its request made whole.
 */
export function groupConversations(exchanges: readonly Exchange[]): Exchange[][] {
  const conversations: Exchange[][] = [];
  const byResponseId = new Map<string, Answered>();
  /** The conversations whose last request no later request has continued yet. */
  const open = new Set<Exchange[]>();
  for (const exchange of exchanges) {
    const whole = wholeRequest(exchange.request, (id) => byResponseId.get(id));
    if (!whole.ok) throw unknownThread(whole.previousMessageId);
    const made = { ...exchange, request: whole.request };
    byResponseId.set(made.response.id, made);
    const continued = [...open].find((conversation) => continues(conversation.at(-1)!, made.request));
    if (continued === undefined) {
      const conversation = [made];
      conversations.push(conversation);
      open.add(conversation);
    } else continued.push(made);
  }
  return conversations;
}

/** Whether a request sends back `last`'s messages, then its response as the assistant's message. */
export function continues(last: Exchange, next: MessagesRequest): boolean {
  const before = last.request.messages;
  const reply = sentBack(last.response);
  const sent = reply === undefined ? before : [...before, { role: 'assistant', content: reply }];
  if (next.messages.length < sent.length || next.messages.length === before.length) return false;
  return firstDifference(sent, next.messages.slice(0, sent.length)) === undefined;
}

function unknownThread(id: string): UsageError {
  return new UsageError(
    'intercept_unsupported',
    `The intercepted traffic cannot be recorded as a trajectory: a request continues the server-held thread of ` +
      `response ${id}, which was not intercepted. Start the interception before the conversation's first request.`,
  );
}
