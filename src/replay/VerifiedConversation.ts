import { firstDifference, type Difference } from '../json/firstDifference.js';
import type { Message } from '../messages/types.js';

/**
 * Compares each request's conversation with the recorded one, in time proportional to what is new in it. Each
 * turn's conversation repeats the last one's and adds to it, and the runtime never changes a message once sent:
 * a live message found equal to the recorded message at its place is remembered there, and when the same live
 * object comes back at the same place, against the same recorded message, it is not walked (nor redacted) again.
 * Only the messages not met before are redacted and compared, so a replay's cost per turn does not grow with the
 * conversation's length: a pointer comparison per message is all an old one costs.
 */
export class VerifiedConversation {
  /** By place in the conversation: the recorded message and the live message found equal to it there. */
  readonly #recorded: Message[] = [];
  readonly #live: Message[] = [];

  /**
   * The first difference between the first `length` messages of `recorded` and `live`, each live message new here
   * redacted by `redact` first (as the recording was), with its path from `messages[i]`.
   */
  compare(
    recorded: readonly Message[],
    length: number,
    live: readonly Message[],
    redact: <T>(value: T) => T = (value) => value,
  ): Difference | undefined {
    const [verifiedRecorded, verifiedLive] = [this.#recorded, this.#live];
    // The messages met before, at the same places: a pointer comparison each (the loop every turn runs).
    const shared = Math.min(length, live.length);
    let i = 0;
    while (i < shared && verifiedLive[i] === live[i] && verifiedRecorded[i] === recorded[i]) i++;
    for (const count = Math.max(length, live.length); i < count; i++) {
      const e = i < length ? recorded[i] : undefined;
      const a = live[i];
      if (e !== undefined && verifiedRecorded[i] === e && verifiedLive[i] === a) continue;
      const difference = firstDifference(e, a === undefined ? a : redact(a), `messages[${i}]`);
      if (difference !== undefined) return difference;
      if (e === undefined || a === undefined) continue;
      verifiedRecorded[i] = e;
      verifiedLive[i] = a;
    }
    return undefined;
  }
}
