import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextCorpus } from '../../../src/guard/provenance/textCorpus.js';
import { needleOf, normalised, tokensOf } from '../../../src/guard/provenance/valueMatch.js';

/**
 * The index answers as the definition does: a value occurs where a run of whole tokens has its tokens,
 * or, when it is one token, where a run of tokens joined equals it (issue 31: a value split where the
 * text is not, `pay.co` in `Payco`, does not occur).
 */

/** The definition, checked run by run. */
function holdsByDefinition(text: string, value: string[]): boolean {
  const tokens = tokensOf(normalised(text));
  const compact = value.join('');
  for (let i = 0; i < tokens.length; i++) {
    if (value.length > 1 && value.every((token, j) => tokens[i + j] === token)) return true;
    let run = '';
    for (let j = i; j < tokens.length && run.length < compact.length; j++) {
      run += tokens[j];
      if (run === compact && value.length === 1) return true;
    }
  }
  return false;
}

describe('TextCorpus', () => {
  it('finds a string value in exactly the texts the definition says, for generated texts', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', '1', ' ', '-', '.', 'é'), maxLength: 30 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 6 }), text, (texts, value) => {
        const needle = needleOf(value);
        fc.pre(needle.kind === 'tokens');
        const tokens = tokensOf(normalised(value));
        const expected = texts.flatMap((t, i) => (holdsByDefinition(t, tokens) ? [i] : []));
        expect(new TextCorpus(texts).textsHolding(needle)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers for a hundred long texts and a value of a million characters', () => {
    const texts = Array.from({ length: 100 }, (_, i) => `${'lorem ipsum dolor '.repeat(500)} GB29 NWBK ${i}`);
    const corpus = new TextCorpus(texts);
    expect(corpus.textsHolding(needleOf('gb29-nwbk 7'))).toEqual([7]);
    expect(corpus.textsHolding(needleOf('ab'.repeat(500_000)))).toEqual([]);
    expect(corpus.textsHolding(needleOf('lorem ipsum'.repeat(2)))).toEqual([]);
    expect(corpus.textsHolding(needleOf('ipsum dolor lorem'))).toHaveLength(100);
  });
});

describe('TextCorpus, the checks behind each answer', () => {
  it('lists every text a number occurs in, not only the last', () => {
    const corpus = new TextCorpus(['Pay 100', 'no number', 'Rent 100.00', 'Total: 100']);
    expect(corpus.textsHolding(needleOf(100))).toEqual([0, 2, 3]);
  });

  it('lists the texts in ascending order, whichever prefix of the value finds them first', () => {
    // `a` (the first prefix looked up) finds text 1, `abc` finds text 0.
    expect(new TextCorpus(['abc', 'a bc']).textsHolding(needleOf('abc'))).toEqual([0, 1]);
    expect(new TextCorpus(['x abc', 'y', 'a bc', 'ab c']).textsHolding(needleOf('abc'))).toEqual([0, 2, 3]);
  });

  it('checks every character of a run, not only its first token, its length and its boundaries', () => {
    expect(new TextCorpus(['GB29 XXXX']).textsHolding(needleOf('GB29 NWBK'))).toEqual([]);
    expect(new TextCorpus(['ab xy', 'ab cd']).textsHolding(needleOf('ab-cd'))).toEqual([1]);
  });

  it('tells apart two tokens whose hashes collide by their characters', () => {
    // bcgavb and glcmst have the same hash (18550825) modulo the corpus's prime.
    const corpus = new TextCorpus(['pay glcmst', 'pay bcgavb']);
    expect(corpus.textsHolding(needleOf('bcgavb'))).toEqual([1]);
    expect(corpus.textsHolding(needleOf('glcmst'))).toEqual([0]);
    expect(corpus.textsHolding(needleOf('pay bcgavb'))).toEqual([1]);
  });

  it('finds a value at the very start and the very end of each text, empty texts between', () => {
    const texts = ['', 'GB29 first', '', '', 'last GB29', 'GB29', ''];
    expect(new TextCorpus(texts).textsHolding(needleOf('gb29'))).toEqual([1, 4, 5]);
    expect(new TextCorpus(texts).textsHolding(needleOf('gb29 first'))).toEqual([1]);
    expect(new TextCorpus(texts).textsHolding(needleOf('last gb29'))).toEqual([4]);
    expect(new TextCorpus(texts).textsHolding(needleOf('gb29 gb29'))).toEqual([]);
  });
});

describe('TextCorpus, the cost of a place', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('compares the characters of a place only when its hash matches the value', () => {
    // 2,000 places where a run of whole tokens as long as the value starts (`aaaa`, the value's first
    // four letters): compared character by character, an outside text of equal tokens and a long value
    // would cost places times length. Every place differs from the value in its last letter.
    const corpus = new TextCorpus([`${'aaaa '.repeat(2000)}`, 'b']);
    const value = needleOf(`${'aaaa'.repeat(499)}aaab`);
    const compared = vi.spyOn(String.prototype, 'startsWith');
    expect(corpus.textsHolding(value)).toEqual([]);
    expect(compared).not.toHaveBeenCalled();
    // A match is compared: the count is of the corpus's own comparisons.
    expect(corpus.textsHolding(needleOf('aaaa'.repeat(500)))).toEqual([0]);
    expect(compared.mock.calls.length).toBe(1501);
  });
});
