import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '../../src/json/canonicalJson.js';
import { copyByLevel, copyValue } from '../../src/json/copyValue.js';
import { describeValue } from '../../src/json/describeValue.js';
import { firstDifference } from '../../src/json/firstDifference.js';
import { nestsBeyond, pathBeyondDepth } from '../../src/json/jsonDepth.js';
import { copyThroughJson, jsonText, writeJsonText } from '../../src/json/jsonText.js';

/** A value `depth` levels deep: arrays, objects, or both in turn. */
function nested(depth: number, kind: 'array' | 'object' | 'mixed', leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++)
    value = kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [value] : { k: value };
  return value;
}

const DEEP = 20_000;

/** The recursive reference each depth-safe function must agree with on ordinary values. */
function sortKeysRecursively(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysRecursively);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(sorted, key, {
      value: sortKeysRecursively((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return sorted;
}

/**
 * Values JSON.stringify has an answer for: JSON, plus undefined, non-finite numbers, Dates, toJSON, boxed values,
 * holes.
 */
const stringifiable = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.constantFrom(
      undefined,
      Number.NaN,
      Infinity,
      -0,
      () => 1,
      Symbol('s'),
      new Date(0),
      new Number(3),
      new String('s'),
      new Boolean(false),
    ),
    fc.constant({ toJSON: (key: string) => `key:${key}` }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.sparseArray(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonText', () => {
  it('writes exactly what JSON.stringify writes, on either path (the engine, or level by level)', () => {
    fc.assert(
      fc.property(stringifiable, (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value));
        expect(writeJsonText(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('with sorted keys, writes what JSON.stringify writes for the value with its keys sorted, on either path', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = JSON.stringify(sortKeysRecursively(value));
        expect(jsonText(value, { sortKeys: true })).toBe(expected);
        expect(writeJsonText(value, { sortKeys: true })).toBe(expected);
      }),
    );
  });

  it(
    'sorts the keys of what toJSON returns, leaves boxed values boxed, and can write a bigint as text, on either ' +
      'path',
    () => {
      const value = { b: new Date(0), a: { toJSON: () => ({ z: 1, y: new Number(2) }) }, n: [10n] };
      for (const write of [jsonText, writeJsonText]) {
        expect(write(value, { sortKeys: true, bigintAsString: true })).toBe(
          '{"a":{"y":2,"z":1},"b":"1970-01-01T00:00:00.000Z","n":["10n"]}',
        );
      }
    },
  );

  it('fails as JSON.stringify fails: a cycle or a bigint is a TypeError', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    for (const write of [jsonText, writeJsonText]) {
      expect(() => write(cyclic)).toThrow(TypeError);
      expect(() => write({ n: 1n })).toThrow(TypeError);
    }
    // A value seen twice, not inside itself, is not a cycle.
    const shared = { x: 1 };
    expect(jsonText([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it.each(['array', 'object', 'mixed'] as const)(
    'writes a %s value nested 20,000 deep, where JSON.stringify overflows',
    (kind) => {
      const value = nested(DEEP, kind);
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      const text = jsonText(value)!;
      expect(text.startsWith(kind === 'array' ? '[[[' : kind === 'object' ? '{"k":{"k":' : '{"k":[{"k":[')).toBe(true);
      expect(pathBeyondDepth(JSON.parse(text), DEEP)).toBeUndefined();
      expect(pathBeyondDepth(JSON.parse(text), DEEP - 1)).toHaveLength(DEEP - 1);
      expect(copyThroughJson(value)).toBeDefined();
    },
  );

  it('can stop early: the text is then a prefix of the whole', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(200), (value, stopAfter) => {
        const whole = JSON.stringify(value);
        const part = jsonText(value, { stopAfter })!;
        expect(whole.startsWith(part)).toBe(true);
        if (part.length < whole.length) expect(part.length).toBeGreaterThan(stopAfter);
      }),
    );
  });
});

describe('canonicalJson and digestOf', () => {
  it('give the text they always gave for JSON values (digests already written stay valid)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(JSON.stringify(sortKeysRecursively(value)));
      }),
    );
  });

  it('have an answer for a value nested 20,000 deep, independent of key order', () => {
    const value = nested(DEEP, 'mixed', { b: 1, a: 2 });
    expect(canonicalJson(value).endsWith(`[{"a":2,"b":1}${']}'.repeat(DEEP / 2)}`)).toBe(true);
    expect(digestOf(value)).toBe(digestOf(nested(DEEP, 'mixed', { a: 2, b: 1 })));
    expect(digestOf(value)).not.toBe(digestOf(nested(DEEP, 'mixed', { a: 2, b: 2 })));
  });
});

describe('describeValue', () => {
  it('quotes the start of a value nested 20,000 deep', () => {
    expect(describeValue(nested(DEEP, 'array'))).toBe(`the array ${'['.repeat(40)}…`);
    expect(describeValue(nested(DEEP, 'object'))).toBe(`the object {"k":{"k":{"k":{"k":{"k":{"k":{"k":{"k":…`);
  });

  it('still quotes a nested bigint as text, and a cycle without looking inside', () => {
    expect(describeValue({ n: 1n })).toBe('the object {"n":"1n"}');
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(describeValue(cyclic)).toBe('the array […]');
  });
});

/** The recursive walk firstDifference made before it kept a stack of its own: the reference. */
function recursiveFirstDifference(
  expected: unknown,
  actual: unknown,
  path = '',
): { path: string; expected: unknown; actual: unknown } | undefined {
  if (Object.is(expected, actual)) return undefined;
  const plain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const shared = Math.min(expected.length, actual.length);
    for (let i = 0; i < shared; i++) {
      const difference = recursiveFirstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (difference !== undefined) return difference;
    }
    if (expected.length === actual.length) return undefined;
    return { path: `${path}[${shared}]`, expected: expected[shared], actual: actual[shared] };
  }
  if (plain(expected) && plain(actual)) {
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((key) => !Object.hasOwn(expected, key))];
    for (const key of keys) {
      const difference = recursiveFirstDifference(
        Object.hasOwn(expected, key) ? expected[key] : undefined,
        Object.hasOwn(actual, key) ? actual[key] : undefined,
        path === '' ? key : `${path}.${key}`,
      );
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return { path, expected, actual };
}

describe('firstDifference', () => {
  const small = fc.jsonValue({ maxDepth: 4 });
  it('agrees with the recursive walk on equal and nearly equal values (what a replay compares)', () => {
    const withUndefined = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(withUndefined)
        : typeof value === 'object' && value !== null
          ? { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUndefined(v)])), absent: undefined }
          : value;
    fc.assert(
      fc.property(small, fc.nat(), fc.jsonValue({ maxDepth: 1 }), (a, at, replacement) => {
        const copies = [structuredClone(a), withUndefined(a)];
        // One leaf or branch of the copy replaced: the first difference is there, or nowhere if it is the same value.
        const edited = JSON.stringify(a).replace(
          /(?<=[:[,])(?:-?\d[\d.eE+-]*|"[^"]*"|true|false|null)(?=[,\]}])/g,
          (leaf) => (at-- === 0 ? JSON.stringify(replacement) : leaf),
        );
        for (const b of [...copies, JSON.parse(edited) as unknown]) {
          expect(firstDifference(a, b, 'p')).toEqual(recursiveFirstDifference(a, b, 'p'));
          expect(firstDifference(b, a)).toEqual(recursiveFirstDifference(b, a));
        }
      }),
    );
  });
  it('finds the difference the recursive walk found, in document order', () => {
    fc.assert(
      fc.property(small, small, fc.string({ maxLength: 3 }), (a, b, prefix) => {
        expect(firstDifference(a, b, prefix)).toEqual(recursiveFirstDifference(a, b, prefix));
        expect(firstDifference(a, a, prefix)).toBeUndefined();
      }),
    );
  });

  it('finds a difference 20,000 levels down, with its path', () => {
    const difference = firstDifference(nested(DEEP, 'array', 1), nested(DEEP, 'array', 2), 'input');
    expect(difference).toEqual({ path: `input${'[0]'.repeat(DEEP)}`, expected: 1, actual: 2 });
    expect(firstDifference(nested(DEEP, 'object'), nested(DEEP, 'object'))).toBeUndefined();
  });
});

describe('copyValue', () => {
  it('copies as structuredClone copies', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withSparseArray: true,
          withBoxedValues: true,
        }),
        (value) => {
          for (const copy of [copyValue(value), copyByLevel(value)]) {
            expect(copy).toStrictEqual(structuredClone(value));
            if (typeof value === 'object' && value !== null) expect(copy).not.toBe(value);
          }
        },
      ),
    );
  });

  it('keeps shared and cyclic references, and copies a value nested 20,000 deep', () => {
    const shared = { x: 1 };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    const copy = copyByLevel(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy.a).toBe(copy.b);
    expect(copy.a).not.toBe(shared);
    const deep = nested(DEEP, 'mixed');
    expect(() => structuredClone(deep)).toThrow(RangeError);
    expect(jsonText(copyValue(deep))).toBe(jsonText(deep));
  });
});

describe('pathBeyondDepth', () => {
  it('names the first array or object past the limit, in document order', () => {
    expect(pathBeyondDepth({ a: 1, b: [[2]], c: [[[3]]] }, 3)).toEqual(['c', 0, 0]);
    expect(pathBeyondDepth({ a: 1, b: [[2]], c: [[[3]]] }, 4)).toBeUndefined();
    expect(pathBeyondDepth('text', 0)).toBeUndefined();
    expect(pathBeyondDepth([], 0)).toEqual([]);
  });

  it('for any nesting, finds the limit exactly where the value crosses it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom('array', 'object', 'mixed'),
        (depth, limit, kind) => {
          const path = pathBeyondDepth(nested(depth, kind as 'array'), limit);
          if (depth <= limit) expect(path).toBeUndefined();
          else expect(path).toHaveLength(limit);
        },
      ),
    );
  });

  it('stops at the limit on a cyclic value', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(pathBeyondDepth(cyclic, 10)).toEqual(Array(10).fill(0));
    expect(nestsBeyond(cyclic, 10)).toBe(true);
  });

  it('nestsBeyond: whether any array or object sits past the limit, in any member of any shape', () => {
    /** The levels of arrays and objects in a value, counted plainly: a scalar has none. */
    const levelsOf = (value: unknown): number =>
      typeof value !== 'object' || value === null ? 0 : 1 + Math.max(0, ...Object.values(value).map(levelsOf));
    const member = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.sparseArray(fc.jsonValue({ maxDepth: 2 })));
    fc.assert(
      fc.property(fc.oneof(member, fc.array(member), fc.dictionary(fc.string(), member)), fc.nat(6), (value, limit) => {
        expect(nestsBeyond(value, limit)).toBe(levelsOf(value) > limit);
        expect(pathBeyondDepth(value, limit) !== undefined).toBe(levelsOf(value) > limit);
      }),
    );
  });
});
