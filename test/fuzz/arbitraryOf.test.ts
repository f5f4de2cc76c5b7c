import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_FORMATS } from '../../src/tools/schema/formats.js';
import { arbitraryOf, valuesOf } from '../../src/fuzz/arbitraries/arbitraryOf.js';
import { generationFor } from '../../src/fuzz/arbitraries/generation.js';
import { ajvOracle } from './ajvOracle.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

const oracle = ajvOracle();

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

describe('arbitraryOf', () => {
  it.each(Object.entries(PUBLISHED_SCHEMAS))('generates only values ajv takes for %s', (_name, schema) => {
    fc.assert(
      fc.property(arbitraryOf(schema, schema), (value) => {
        const verdict = oracle(schema, value);
        expect(verdict.errors).toBe('');
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('keeps recursive values shallow: a tree ends, well inside the 64 levels the binder takes', () => {
    for (const name of ['recursiveTree', 'recursiveRoot', 'optionalRecursion']) {
      const schema = PUBLISHED_SCHEMAS[name]!;
      fc.assert(
        fc.property(arbitraryOf(schema, schema), (value) => {
          expect(depthOf(value)).toBeLessThanOrEqual(16);
        }),
        { numRuns: 300, seed: 2 },
      );
    }
  });
});

/** Fixtures whose schema is already in the published form (no allOf, nullable, draft-04/07 spellings). */
function realSchemasInPublishedForm(): [string, Record<string, unknown>][] {
  const folder = new URL('../fixtures/tool-schemas/', import.meta.url);
  const found: [string, Record<string, unknown>][] = [];
  for (const group of ['mcp', 'python-openapi']) {
    for (const file of readdirSync(new URL(`${group}/`, folder))) {
      if (!file.endsWith('.json')) continue;
      const { inputSchema } = JSON.parse(readFileSync(new URL(`${group}/${file}`, folder), 'utf8'));
      const text = JSON.stringify(inputSchema);
      if (/"(allOf|nullable|additionalItems)"|"exclusive(Min|Max)imum":(true|false)|"items":\[/.test(text)) continue;
      found.push([`${group}/${file}`, published(inputSchema)]);
    }
  }
  return found;
}

/** The two steps of publishing these schemas need: `$schema` dropped, formats JSON Schema does not define removed. */
function published(node: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(node), (key, value) =>
    key === '$schema' || (key === 'format' && typeof value === 'string' && !JSON_SCHEMA_FORMATS.has(value))
      ? undefined
      : value,
  );
}

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
    for (const value of fc.sample(arbitraryOf(open, open), { numRuns: 400, seed: 1 }) as Sample[]) {
      if (Object.keys(value.labels ?? {}).length > 0) seen.add('additionalProperties schema');
      if (Object.keys(value.headers ?? {}).length > 0) seen.add('propertyNames');
      if (Object.keys(value).some((key) => !['labels', 'env', 'headers'].includes(key))) seen.add('open root');
    }
    const unions = PUBLISHED_SCHEMAS.unions!;
    for (const value of fc.sample(arbitraryOf(unions, unions), { numRuns: 200, seed: 1 }) as Sample[])
      seen.add(`shape ${value.shape.kind}`);
    const arrays = PUBLISHED_SCHEMAS.arrays!;
    for (const value of fc.sample(arbitraryOf(arrays, arrays), { numRuns: 200, seed: 1 }) as Sample[])
      if (value.row !== undefined) seen.add(`row of ${Math.min(value.row.length, 2)}`);
    const defs = PUBLISHED_SCHEMAS.pydanticDefs!;
    const withNulls = valuesOf(defs, generationFor(defs, true), 0)!;
    for (const value of fc.sample(withNulls, { numRuns: 300, seed: 1 }) as Sample[])
      if (value.sort === null) seen.add('null for absent');
    expect([...seen].sort()).toEqual([
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

describe('arbitraryOf over real schemas already in the published form', () => {
  const schemas = realSchemasInPublishedForm();
  it('finds most of the corpus in that form', () => {
    expect(schemas.length).toBeGreaterThan(100);
  });
  it.each(schemas)('generates only values ajv takes for %s', (_name, schema) => {
    fc.assert(
      fc.property(arbitraryOf(schema, schema), (value) => {
        expect(oracle(schema, value).errors).toBe('');
      }),
      { numRuns: 40, seed: 17 },
    );
  });
});
