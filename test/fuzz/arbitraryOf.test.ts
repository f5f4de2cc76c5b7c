import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_FORMATS } from '../../src/tools/schema/formats.js';
import { arbitraryOf } from '../../src/fuzz/arbitraries/arbitraryOf.js';
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
    for (const name of ['recursiveTree', 'recursiveRoot']) {
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
      { numRuns: 60, seed: 17 },
    );
  });
});
