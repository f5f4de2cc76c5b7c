import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf } from '../../src/fuzz/arbitraries/arbitraryOf.js';
import { ajvOracle } from './ajvOracle.js';
import { publishedCorpus } from './publishedCorpus.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

const oracle = ajvOracle();

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

describe('arbitraryOf', () => {
  it.each(Object.entries(PUBLISHED_SCHEMAS))('generates only values ajv takes for %s', (_name, schema) => {
    fc.assert(
      fc.property(arbitraryOf(schema, schema)!, (value) => {
        expect(oracle(schema, value), JSON.stringify(value)).toBe(true);
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('keeps recursive values shallow: a tree ends, well inside the 64 levels the binder takes', () => {
    for (const name of ['recursiveTree', 'recursiveRoot', 'optionalRecursion']) {
      const schema = PUBLISHED_SCHEMAS[name]!;
      fc.assert(
        fc.property(arbitraryOf(schema, schema)!, (value) => {
          expect(depthOf(value)).toBeLessThanOrEqual(16);
        }),
        { numRuns: 300, seed: 2 },
      );
    }
  });
});

/** A generated input, read loosely: the test looks for shapes in it. */
type Sample = {
  labels?: object;
  headers?: object;
  shape: { kind: string };
  row?: unknown[];
  sort?: unknown;
  [key: string]: unknown;
};

describe('arbitraryOf reaches what a schema allows beyond the least', () => {
  it('extra keys, pattern keys, both union alternatives, tuples short and full, null for an absent property', () => {
    const seen = new Set<string>();
    const open = PUBLISHED_SCHEMAS.openObjects!;
    for (const value of fc.sample(arbitraryOf(open, open)!, { numRuns: 400, seed: 1 }) as Sample[]) {
      if (Object.keys(value.labels ?? {}).length > 0) seen.add('additionalProperties schema');
      if (Object.keys(value.headers ?? {}).length > 0) seen.add('propertyNames');
      if (Object.keys(value).some((key) => !['labels', 'env', 'headers'].includes(key))) seen.add('open root');
    }
    const unions = PUBLISHED_SCHEMAS.unions!;
    for (const value of fc.sample(arbitraryOf(unions, unions)!, { numRuns: 200, seed: 1 }) as Sample[])
      seen.add(`shape ${value.shape.kind}`);
    const arrays = PUBLISHED_SCHEMAS.arrays!;
    for (const value of fc.sample(arbitraryOf(arrays, arrays)!, { numRuns: 200, seed: 1 }) as Sample[])
      if (value.row !== undefined) seen.add(`row of ${Math.min(value.row.length, 2)}`);
    const defs = PUBLISHED_SCHEMAS.pydanticDefs!;
    const withNulls = arbitraryOf(defs, defs, true)!;
    for (const value of fc.sample(withNulls, { numRuns: 300, seed: 1 }) as Sample[])
      if (value.sort === null) seen.add('null for absent');
      else if (!('sort' in value)) seen.add('a required property with a default left out');
    expect([...seen].sort()).toEqual([
      'a required property with a default left out',
      'additionalProperties schema',
      'null for absent',
      'open root',
      'propertyNames',
      'row of 0',
      'row of 1',
      'row of 2',
      'shape circle',
      'shape square',
    ]);
  });
});

describe('arbitraryOf over the corpus of real schemas, as published', () => {
  const schemas = publishedCorpus();
  it('reads nearly all of the corpus', () => {
    expect(schemas.length).toBeGreaterThan(160);
  });
  it.each(schemas)('generates only values ajv takes for %s', (_name, schema) => {
    fc.assert(
      fc.property(arbitraryOf(schema, schema)!, (value) => {
        expect(oracle(schema, value), JSON.stringify(value)).toBe(true);
      }),
      { numRuns: 20, seed: 17 },
    );
  });
});
