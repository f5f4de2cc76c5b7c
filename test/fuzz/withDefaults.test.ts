import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf } from '../../src/fuzz/arbitraries/arbitraryOf.js';
import { withDefaults } from '../../src/fuzz/withDefaults.js';
import { ajvOracle } from './ajvOracle.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

const oracle = ajvOracle();
const { pydanticDefs } = PUBLISHED_SCHEMAS as Record<string, Record<string, unknown>>;

describe('withDefaults: what run should receive for a valid input', () => {
  it('fills defaults beside a $ref and in a nullable union, and keeps what was sent', () => {
    expect(withDefaults(pydanticDefs!, { query: 'q' })).toEqual({ query: 'q', limit: null, sort: 'asc', tags: [] });
    expect(withDefaults(pydanticDefs!, { query: 'q', limit: 5, sort: 'desc', owner: { name: 'a' } })).toEqual({
      query: 'q',
      limit: 5,
      sort: 'desc',
      owner: { name: 'a' },
      tags: [],
    });
  });

  it('reads null as absent: the default where there is one, dropped where there is none', () => {
    // `sort` refuses null and has a default; `owner` takes null and has no default; `limit` takes null, default null.
    expect(withDefaults(pydanticDefs!, { query: 'q', sort: null, owner: null, limit: null })).toEqual({
      query: 'q',
      limit: null,
      sort: 'asc',
      owner: null,
      tags: [],
    });
    const schema = {
      type: 'object',
      properties: {
        note: { type: 'string' },
        level: { type: ['integer', 'null'], default: 3 },
        items: { type: 'array', items: { type: ['string', 'null'] } },
      },
      additionalProperties: { type: ['string', 'null'] },
    };
    // A null item or additional value is a value; null for a property that takes null and has a default: the default.
    expect(withDefaults(schema, { note: null, level: null, items: [null, 'a'], extra: null })).toEqual({
      level: 3,
      items: [null, 'a'],
      extra: null,
    });
  });

  it('applies defaults at any depth: in union alternatives (the first taking the value), refs, extra keys', () => {
    const schema = {
      type: 'object',
      properties: {
        target: {
          anyOf: [
            { type: 'object', properties: { id: { type: 'integer' }, v: { default: 1 } }, required: ['id'] },
            { type: 'object', properties: { name: { type: 'string' }, v: { default: 2 } }, required: ['name'] },
          ],
        },
        tree: { $ref: '#/$defs/Node' },
      },
      patternProperties: { '^x-': { type: 'object', properties: { on: { default: true } } } },
      additionalProperties: { type: 'object', properties: { seen: { default: false } } },
      $defs: {
        Node: {
          type: 'object',
          properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } }, tag: { default: 't' } },
        },
      },
    };
    expect(
      withDefaults(schema, { target: { name: 'n' }, tree: { kids: [{ kids: [] }, {}] }, 'x-a': {}, other: {} }),
    ).toEqual({
      target: { name: 'n', v: 2 },
      tree: { kids: [{ kids: [], tag: 't' }, { tag: 't' }], tag: 't' },
      'x-a': { on: true },
      other: { seen: false },
    });
    expect(withDefaults(schema, { target: { id: 1, name: 'both' } })).toEqual({
      target: { id: 1, name: 'both', v: 1 },
    });
  });

  it('passes a free-form object as sent and gives each default as a copy', () => {
    const schema = { type: 'object', properties: { meta: { type: 'object' }, list: { default: [1] } } };
    const meta = { a: [1, { b: null }], c: null };
    const first = withDefaults(schema, { meta }) as { list: number[] };
    expect(first).toEqual({ meta, list: [1] });
    first.list.push(2);
    expect(withDefaults(schema, {})).toEqual({ list: [1] });
  });

  it.each(Object.entries(PUBLISHED_SCHEMAS))(
    'gives a value the schema takes, for every valid input of %s',
    (_, schema) => {
      fc.assert(
        fc.property(arbitraryOf(schema, schema, true)!, (input) => {
          const bound = withDefaults(schema, input);
          expect(oracle(schema, bound), JSON.stringify(bound)).toBe(true);
        }),
        { numRuns: 150, seed: 23 },
      );
    },
  );
});
