import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../src/json/firstDifference.js';
import type { Message } from '../../src/index.js';
import { VerifiedConversation } from '../../src/replay/VerifiedConversation.js';

/**
 * A replay compares each request's conversation in time proportional to what is new in it (VerifiedConversation).
 * Held here to the comparison it replaced, the reference: the whole recorded prefix against the whole live list on
 * every turn. The live conversation changes as a run's may between turns: messages appended (the recorded one, or
 * one that differs), a message replaced by another object, the last one dropped; a message object is never edited
 * in place (the runtime never changes a message once sent, which is what the cache relies on).
 */
const text = fc.string({ maxLength: 6 });
const message = fc.record({
  role: fc.constantFrom('user', 'assistant'),
  content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { minLength: 1, maxLength: 2 })),
}) as fc.Arbitrary<Message>;

const step = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('appendRecorded' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('appendOther' as const), message }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), message }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceEqual' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropLast' as const) }) },
);

/** A redaction as a project's: a secret word replaced in every string, the value copied. */
const redact = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' ? v.replaceAll('a', '*') : v)) as T;

describe('VerifiedConversation', () => {
  it('finds the first difference the whole comparison found, turn after turn', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(step, fc.nat()), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        (recorded, steps, redacting) => {
          const verified = new VerifiedConversation();
          const redactor = redacting ? redact : <T>(value: T) => value;
          const shownRecorded = recorded.map(redactor);
          const live: Message[] = [];
          for (const [change, length] of steps) {
            if (change.kind === 'appendRecorded') live.push(structuredClone(recorded[live.length % recorded.length]!));
            else if (change.kind === 'appendOther') live.push(structuredClone(change.message));
            else if (change.kind === 'dropLast') live.pop();
            else if (live.length > 0) {
              const at = change.at % live.length;
              live[at] = change.kind === 'replace' ? structuredClone(change.message) : structuredClone(live[at]!);
            }
            const count = length % (recorded.length + 1);
            const reference = firstDifference(shownRecorded.slice(0, count), live.map(redactor), 'messages');
            expect(verified.compare(shownRecorded, count, live, redactor)).toEqual(reference);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
