import { canonicalJson } from '../json/canonicalJson.js';
import { conversationsOf, runOf, withConversations } from '../trajectory/conversationsOf.js';
import type { Trajectory } from '../trajectory/types.js';

/**
 * A new recording with its conversations in the order the previous file holds them, when it holds
 * the same ones (compared as they would be saved, by `prepared`). Concurrent requests arrive in
 * another order on each run; so re-recording traffic that did not change gives the same file.
 */
export function inPreviousOrder(
  previous: Trajectory,
  next: Trajectory,
  prepared: (trajectory: Trajectory) => Trajectory,
): Trajectory {
  const conversations = conversationsOf(next);
  const before = conversationsOf(previous).map(keyOf);
  if (conversations.length < 2 || before.length !== conversations.length) return next;
  const now = conversationsOf(prepared(next)).map(keyOf);
  const order: number[] = [];
  for (const key of before) {
    const at = now.findIndex((candidate, i) => candidate === key && !order.includes(i));
    if (at === -1) return next;
    order.push(at);
  }
  return withConversations(order.map((i) => conversations[i]!));
}

const keyOf = (conversation: Trajectory) => canonicalJson(runOf(conversation));
