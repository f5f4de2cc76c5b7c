import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownCopy, setOwn } from '../../src/fuzz/arbitraries/ownCopy.js';

/** Keys generated objects have, with `__proto__` (assignment takes it for the prototype) and index-like ones. */
const keys = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '12'));
const objects = fc.dictionary(keys, fc.jsonValue({ maxDepth: 1 }), { noNullPrototype: true });

describe('ownCopy', () => {
  it('copies what a spread copies: the same own keys, in the same order, with the same values', () => {
    fc.assert(
      fc.property(objects, (object) => {
        const copy = ownCopy(object);
        const spread = { ...object };
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
        expect(Object.keys(copy)).toEqual(Object.keys(spread));
        for (const key of Object.keys(spread))
          expect(Object.getOwnPropertyDescriptor(copy, key)).toEqual(Object.getOwnPropertyDescriptor(spread, key));
      }),
      { numRuns: 300, seed: 31 },
    );
  });
});

describe('setOwn', () => {
  it('sets an own, enumerable, writable key as defining it would: __proto__ too, the prototype left alone', () => {
    fc.assert(
      fc.property(objects, keys, fc.jsonValue({ maxDepth: 1 }), (object, key, value) => {
        const set = ownCopy(object);
        setOwn(set, key, value);
        const defined = ownCopy(object);
        Object.defineProperty(defined, key, { value, enumerable: true, writable: true, configurable: true });
        expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
        expect(Object.keys(set)).toEqual(Object.keys(defined));
        expect(Object.getOwnPropertyDescriptor(set, key)).toEqual(Object.getOwnPropertyDescriptor(defined, key));
      }),
      { numRuns: 300, seed: 37 },
    );
  });
});
