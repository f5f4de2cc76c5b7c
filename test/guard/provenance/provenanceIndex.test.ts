import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProvenanceIndex } from '../../../src/guard/provenance/provenanceIndex.js';
import { TextCorpus } from '../../../src/guard/provenance/textCorpus.js';
import { needleOf } from '../../../src/guard/provenance/valueMatch.js';

/** The index's own rules: its kept answers, and whose text vouches for a value. */

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ProvenanceIndex', () => {
  it('keeps each answer: a value asked about again queries no corpus', () => {
    const index = new ProvenanceIndex(
      [
        { text: 'Pay GB29 NWBK', call: undefined },
        { text: 'Contact: DE89 3704', call: 0 },
      ],
      ['{"name":"Bob"}'],
      [{ text: 'Pay FR76 3000', tool: 'read_file' }],
    );
    const queries = vi.spyOn(TextCorpus.prototype, 'textsHolding');
    const values = ['gb29-nwbk', 'DE89 3704', 'FR76 3000', 'GB29NWBK'];
    const first = values.map((value) => index.traced(needleOf(value)));
    const asked = queries.mock.calls.length;
    expect(first).toEqual([true, true, false, true]);
    expect(values.map((value) => index.traced(needleOf(value)))).toEqual(first);
    expect(queries.mock.calls.length).toBe(asked);
  });

  it('keeps the answers of two values with the same letters split differently apart', () => {
    // payco occurs in Payco; pay.co (split where the text is not) does not, asked after it or before.
    for (const order of [
      ['payco', 'pay.co'],
      ['pay.co', 'payco'],
    ]) {
      const index = new ProvenanceIndex([{ text: 'Pay to Payco', call: undefined }], [], []);
      const answers = Object.fromEntries(order.map((value) => [value, index.traced(needleOf(value))]));
      expect(answers).toEqual({ payco: true, 'pay.co': false });
    }
    // The same letters cut at 1, 2, 3 and at 1, 23: keys that join the offsets without a separator collide.
    const index = new ProvenanceIndex([{ text: 'a b c defghijklmnopqrstuvwxyz', call: undefined }], [], []);
    expect(index.traced(needleOf('a b c defghijklmnopqrstuvwxyz'))).toBe(true);
    expect(index.traced(needleOf('a bcdefghijklmnopqrstuvw xyz'))).toBe(false);
  });

  it("vouches for a value in the user's text or a result that does not echo it, never in an echo alone", () => {
    const trusted = [
      { text: 'Found DE89 3704', call: 0 },
      { text: 'Found DE89 3704', call: 1 },
    ];
    // Call 0's input holds the value (split anyhow): its result echoes it; call 1's does not.
    expect(new ProvenanceIndex(trusted, ['de893704', 'x'], []).traced(needleOf('DE89 3704'))).toBe(true);
    expect(new ProvenanceIndex(trusted, ['de893704', 'DE89-3704'], []).traced(needleOf('DE89 3704'))).toBe(false);
    const withUser = [...trusted, { text: 'Pay DE89 3704', call: undefined }];
    expect(new ProvenanceIndex(withUser, ['de893704', 'DE89-3704'], []).traced(needleOf('DE89 3704'))).toBe(true);
  });
});
