import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('property tests', () => {
  it('draw the same cases on every run: the same values, in the same order', () => {
    const seed = fc.readConfigureGlobal().seed;
    expect(Number.isSafeInteger(seed)).toBe(true);
    const first = fc.sample(fc.string(), { numRuns: 5 });
    expect(fc.sample(fc.string(), { numRuns: 5 })).toEqual(first);
  });
});
