import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyPlainData } from '../../src/json/copyPlainData.js';

const clonable = (value: unknown): boolean => {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
};

describe('copyPlainData', () => {
  it('copies any value as structuredClone does: same values, prototypes, holes, sharing', () => {
    const anything = fc.anything({
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withDate: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withBigInt: true,
      maxDepth: 4,
    });
    fc.assert(
      fc.property(anything, (value) => {
        fc.pre(clonable(value));
        expect(copyPlainData(value)).toStrictEqual(structuredClone(value));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps shared and cyclic objects as structuredClone does, and throws where it throws', () => {
    const shared = { x: 1 };
    const pair = copyPlainData([shared, shared]);
    expect(pair[0]).toBe(pair[1]);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const copied = copyPlainData(cycle);
    expect(copied.self).toBe(copied);
    expect(() => copyPlainData({ f: () => 1 })).toThrow(structuredCloneError({ f: () => 1 }));
    const own = JSON.parse('{"__proto__": {"x": 1}}') as object;
    expect(Object.keys(copyPlainData(own))).toEqual(['__proto__']);
  });

  it('copies plain data with no object shared with the original', () => {
    const value = { a: [{ b: 'c' }, 2, null], d: { e: -0 } };
    const copy = copyPlainData(value);
    expect(copy).toStrictEqual(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[0]).not.toBe(value.a[0]);
    expect(Object.is(copy.d.e, -0)).toBe(true);
  });
});

function structuredCloneError(value: unknown): string {
  try {
    structuredClone(value);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}
