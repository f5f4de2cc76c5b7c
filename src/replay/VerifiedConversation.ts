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
  /** The recorded list of the last call: while it is the same list, its places hold what they held then. */
  #lastRecorded: readonly Message[] | undefined;

  /**
   * The first difference between the first `length` messages of `recorded` and `live`, each live message new here
   * redacted by `redact` first (as the recording was), with its path from `messages[i]`. A recorded list is never
   * changed in place between calls (a replay's is its file's conversation), so passing the same list again is
   * passing the same messages.
   */
  compare(
    recorded: readonly Message[],
    length: number,
    live: readonly Message[],
    redact: <T>(value: T) => T = (value) => value,
  ): Difference | undefined {
    const [verifiedRecorded, verifiedLive] = [this.#recorded, this.#live];
    // The messages met before, at the same places: a pointer comparison each (the loop every turn runs). The recorded
    // list is nearly always the one of the last call, whose places hold what was verified against: then only the
    // live messages are compared.
    const shared = Math.min(length, live.length);
    let i = 0;
    if (recorded === this.#lastRecorded) while (i < shared && verifiedLive[i] === live[i]) i++;
    while (i < shared && verifiedLive[i] === live[i] && verifiedRecorded[i] === recorded[i]) i++;
    this.#lastRecorded = recorded;
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
