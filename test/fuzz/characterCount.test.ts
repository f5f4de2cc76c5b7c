import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { characterCount } from '../../src/fuzz/arbitraries/characterCount.js';

describe('characterCount', () => {
  it('counts code points as [...text] does: a surrogate pair once, a lone surrogate once', () => {
    // Any UTF-16 units, surrogates (paired, lone, reversed, at either end) and the units either side of their
    // ranges drawn often.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdbff }),
      fc.integer({ min: 0xdc00, max: 0xdfff }),
      fc.constantFrom(0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const text = String.fromCharCode(...units);
        expect(characterCount(text)).toBe([...text].length);
      }),
      { numRuns: 1000, seed: 41 },
    );
  });
});
