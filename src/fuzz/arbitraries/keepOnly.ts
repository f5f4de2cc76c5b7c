import { fc } from '../fastCheck.js';

/** How many values are tried, when an arbitrary is built, before a filter is judged to keep none. */
const TRIES = 40;

/**
 * `arbitrary.filter(keep)`, or undefined when none of a fixed sample of its values passes: a
 * filter that keeps nothing would make fast-check search forever (a `oneOf` alternative that every
 * value of another alternative also matches, a `not` that excludes everything generated).
 */
export function keepOnly<T>(arbitrary: fc.Arbitrary<T>, keep: (value: T) => boolean): fc.Arbitrary<T> | undefined {
  const sample = fc.sample(arbitrary, { numRuns: TRIES, seed: 42 });
  return sample.some(keep) ? arbitrary.filter(keep) : undefined;
}
