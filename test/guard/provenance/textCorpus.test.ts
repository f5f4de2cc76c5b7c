import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
