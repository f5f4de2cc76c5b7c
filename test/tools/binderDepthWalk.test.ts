// Where the compiled check counts levels: the binder walks an input only as far as its schema leads (and a value kept
// as sent, a free-form object, only for its depth), yet refuses exactly what the depth limit refuses, at the place the
// whole input's walk names, before any other refusal. Each case puts the deepest array or object behind one kind of
// site: a member, an item, a union's alternative, a `$ref`'s function, a value kept as sent.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool, type JsonSchema } from '../../src/index.js';
import { pathBeyondDepth } from '../../src/json/jsonDepth.js';

const LIMIT = 64;

/** `depth` arrays one inside another, around `leaf`. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** A tool whose input is `{ v }`, `v` of the given schema, with `$defs` at the root for the schema's `$ref`s. */
function toolOf(schema: unknown, defs: Record<string, unknown> = {}) {
  return defineTool({
    name: 'probe',
    description: 'Probes.',
    input: { type: 'object', properties: { v: schema as JsonSchema }, $defs: defs as Record<string, JsonSchema> },
    run: () => 'ok',
  });
}

interface Site {
  name: string;
  schema: unknown;
  defs?: Record<string, unknown>;
  /** `v` for a deep value `inner` put behind the site. */
  place: (inner: unknown) => unknown;
  /** The path from the input to `inner`. */
  at: (string | number)[];
}

const FREE = { type: 'object' };
const SITES: Site[] = [
  { name: 'a typeless node', schema: {}, place: (x) => x, at: ['v'] },
  { name: 'true', schema: true, place: (x) => x, at: ['v'] },
  { name: 'a free-form object', schema: FREE, place: (x) => ({ x }), at: ['v', 'x'] },
  {
    name: 'a member of an object that only requires names',
    schema: { type: 'object', required: ['a'] },
    place: (x) => ({ a: 's', extra: x }),
    at: ['v', 'extra'],
  },
  {
    name: 'a member additionalProperties: true takes, beside a required one',
    schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true },
    place: (x) => ({ a: 's', extra: x }),
    at: ['v', 'extra'],
  },
  {
    name: 'a member by its pattern',
    schema: { type: 'object', patternProperties: { '^x': true }, additionalProperties: false },
    place: (x) => ({ xy: x }),
    at: ['v', 'xy'],
  },
  {
    name: 'a member after propertyNames has matched the names',
    schema: { type: 'object', propertyNames: { maxLength: 5 } },
    place: (x) => ({ extra: x }),
    at: ['v', 'extra'],
  },
  { name: 'an item of any kind', schema: { type: 'array' }, place: (x) => ['s', x], at: ['v', 1] },
  {
    name: 'an item of a tuple',
    schema: { type: 'array', prefixItems: [{ type: 'string' }, true] },
    place: (x) => ['s', x],
    at: ['v', 1],
  },
  {
    name: "a union's alternative",
    schema: { anyOf: [{ type: 'string' }, FREE] },
    place: (x) => ({ x }),
    at: ['v', 'x'],
  },
  {
    name: "a oneOf's alternative",
    schema: { oneOf: [{ type: 'string' }, FREE] },
    place: (x) => ({ x }),
    at: ['v', 'x'],
  },
  {
    name: "a discriminated union's alternative",
    schema: {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'a' }, x: true }, required: ['kind'] },
        { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
      ],
    },
    place: (x) => ({ kind: 'a', x }),
    at: ['v', 'x'],
  },
  {
    name: "a $ref's function, called on the argument",
    schema: { $ref: '#/$defs/Free' },
    defs: { Free: FREE },
    place: (x) => ({ x }),
    at: ['v', 'x'],
  },
  {
    name: "a $ref's function, called two levels down",
    schema: { type: 'array', items: { type: 'object', properties: { w: { $ref: '#/$defs/Free' } } } },
    defs: { Free: FREE },
    place: (x) => [{ w: { x } }],
    at: ['v', 0, 'w', 'x'],
  },
  {
    name: "a union inside a $ref's function",
    schema: { type: 'object', properties: { w: { $ref: '#/$defs/Either' } } },
    defs: { Either: { anyOf: [{ type: 'integer' }, { type: 'array', items: true }] } },
    place: (x) => ({ w: [x] }),
    at: ['v', 'w', 0],
  },
];

/** The levels of arrays and objects around the value at `at` (the input itself counts one). */
function levelsAround(input: unknown, at: (string | number)[]): number {
  let levels = 0;
  let value = input;
  for (const key of at) {
    levels++;
    value = (value as Record<string | number, unknown>)[key];
  }
  return levels;
}

describe('the depth limit, wherever the deepest value sits', () => {
  for (const site of SITES) {
    it(`binds ${LIMIT} levels and refuses ${LIMIT + 1}, at the crossing, behind ${site.name}`, () => {
      const tool = toolOf(site.schema, site.defs);
      const around = levelsAround({ v: site.place(0) }, site.at);
      const fits = { v: site.place(nested(LIMIT - around)) };
      expect(pathBeyondDepth(fits, LIMIT)).toBeUndefined();
      expect(tool.bind(fits)).toEqual({ ok: true, args: fits });
      const deeper = { v: site.place(nested(LIMIT - around + 1)) };
      expect(tool.bind(deeper)).toMatchObject({
        ok: false,
        invalid: { code: 'too_deep', argument: 'v', path: [...site.at, ...Array(LIMIT - around).fill(0)] },
      });
      expect(tool.bind({ v: site.place(nested(20_000)) })).toMatchObject({ ok: false, invalid: { code: 'too_deep' } });
    });
  }
});

describe('a recursive schema', () => {
  const tree = { $ref: '#/$defs/Tree' };
  const trees = {
    Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } } },
  };
  /** `levels` levels of trees (each an object and its array of kids), the innermost a leaf. */
  const grown = (levels: number): unknown => {
    let node: unknown = {};
    for (let i = 0; i < levels; i++) node = { kids: [node] };
    return node;
  };

  it('binds as deep as the limit allows and refuses one level more, however deep the input goes', () => {
    const tool = toolOf(tree, trees);
    // The input and v's tree are levels 1 and 2; each level of the tree below adds an array and an object.
    const fits = { v: grown((LIMIT - 2) / 2) };
    expect(tool.bind(fits)).toEqual({ ok: true, args: fits });
    const deeper = { v: { kids: [grown((LIMIT - 2) / 2)] } };
    const refused = tool.bind(deeper);
    expect(refused).toMatchObject({ ok: false, invalid: { code: 'too_deep' } });
    expect((refused as { invalid: { path: unknown[] } }).invalid.path).toEqual(pathBeyondDepth(deeper, LIMIT));
    for (const levels of [100, 10_000])
      expect(tool.bind({ v: grown(levels) })).toMatchObject({ ok: false, invalid: { code: 'too_deep' } });
  });

  it('refuses a cyclic value as too deep, where it crosses the limit', () => {
    const cyclic: { kids: unknown[] } = { kids: [] };
    cyclic.kids.push(cyclic);
    const refused = toolOf(tree, trees).bind({ v: cyclic });
    expect(refused).toMatchObject({ ok: false, invalid: { code: 'too_deep' } });
    expect((refused as { invalid: { path: unknown[] } }).invalid.path).toHaveLength(LIMIT);
  });

  it('counts in a function made for a $ref that a condition reads first, and in one a condition reads after', () => {
    const arrays = { Arrays: { type: 'array', items: { $ref: '#/$defs/Arrays' } } };
    const read = { not: { $ref: '#/$defs/Arrays' } };
    const bound = { $ref: '#/$defs/Arrays' };
    for (const properties of [
      { a: read, b: bound },
      { b: bound, a: read },
    ]) {
      const tool = defineTool({
        name: 'probe',
        description: 'Probes.',
        input: { type: 'object', properties, $defs: arrays } as never,
        run: () => 'ok',
      });
      // b's arrays, the innermost empty, and the input around them.
      expect(tool.bind({ a: 'x', b: nested(LIMIT - 2, []) })).toMatchObject({ ok: true });
      expect(tool.bind({ a: 'x', b: nested(LIMIT - 1, []) })).toMatchObject({
        ok: false,
        invalid: { code: 'too_deep' },
      });
      expect(tool.bind({ a: [], b: [] })).toMatchObject({ ok: false, invalid: { code: 'not_a_known_value' } });
    }
  });
});

describe('the refusal for depth comes first', () => {
  it('names the first place the input crosses the limit in the order sent, not in the order declared', () => {
    const tool = toolOf({ type: 'object', properties: { b: true, a: true } });
    const input = { v: { a: nested(LIMIT), b: nested(LIMIT) } };
    expect(tool.bind(input)).toMatchObject({
      ok: false,
      invalid: { code: 'too_deep', path: ['v', 'a', ...Array(LIMIT - 2).fill(0)] },
    });
  });

  it('over any other refusal, wherever that one comes in the order the schema is checked', () => {
    const tool = defineTool({
      name: 'probe',
      description: 'Probes.',
      input: {
        type: 'object',
        properties: { a: { type: 'string' }, b: {} },
        required: ['c'],
        additionalProperties: true,
      } as never,
      run: () => 'ok',
    });
    expect(tool.bind({ a: 5, b: nested(LIMIT) })).toMatchObject({
      ok: false,
      invalid: { code: 'too_deep', argument: 'b' },
    });
  });
});

describe('a default deeper than the input may go', () => {
  it('is checked, bound and read by conditions with no limit of depth, as a value of the schema itself', () => {
    const deep = nested(LIMIT + 6);
    const tool = defineTool({
      name: 'probe',
      description: 'Probes.',
      input: {
        type: 'object',
        properties: { x: { default: deep }, y: { type: 'string' } },
        if: { properties: { x: { type: 'array', items: { type: 'array' } } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; this object is never awaited.
        then: { properties: { x: true }, required: ['y'] },
      } as never,
      run: () => 'ok',
    });
    expect(tool.bind({ y: 's' })).toEqual({ ok: true, args: { x: deep, y: 's' } });
    expect(tool.bind({})).toMatchObject({ ok: false, invalid: { code: 'required', argument: 'y' } });
  });
});

/** Schemas of a small grammar: values kept as sent, arrays, objects, unions, and a recursive `$ref`. */
const KEYS = ['a', 'b', 'c'] as const;
const schemaArbitrary = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(
      true,
      {},
      { type: 'object' },
      { type: 'array' },
      { type: 'integer' },
      { $ref: '#/$defs/R' },
    ),
    fc.record({ type: fc.constant('array'), items: tie('node') }),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 2 }),
        additionalProperties: fc.oneof(fc.constant(false), tie('node')),
      },
      { requiredKeys: ['type', 'properties'] },
    ),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 2, maxLength: 3 }) }),
  ),
}));
/** JSON without null (the binder reads a null member as absent) and with integers only (its safe range). */
const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.boolean());
const DEFS = {
  R: {
    anyOf: [
      { type: 'integer' },
      { type: 'array', items: { $ref: '#/$defs/R' } },
      { type: 'object', additionalProperties: { $ref: '#/$defs/R' } },
    ],
  },
};

/** A value of the grammar's shapes, with a chain of arrays and objects `extra` levels deep at one place in it. */
const valueArbitrary = fc
  .tuple(
    fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...KEYS, 'x'), tie('value'), { maxKeys: 3 }),
      ),
    })).value,
    fc.integer({ min: LIMIT - 6, max: LIMIT + 2 }),
    fc.array(fc.constantFrom('array', 'object'), { minLength: 1, maxLength: 2 }),
    fc.nat(),
  )
  .map(([value, extra, kinds, where]) => {
    let chain: unknown = 1;
    for (let i = 0; i < extra; i++) chain = kinds[i % kinds.length] === 'array' ? [chain] : { a: chain };
    return replaceALeaf(value, chain, where);
  });

/** The value with its `where`-th container's first member (or the value itself, if a scalar) replaced. */
function replaceALeaf(value: unknown, by: unknown, where: number): unknown {
  const containers: Record<string | number, unknown>[] = [];
  const collect = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    containers.push(v as Record<string, unknown>);
    for (const member of Object.values(v)) collect(member);
  };
  collect(value);
  if (containers.length === 0) return by;
  const target = containers[where % containers.length]!;
  if (Array.isArray(target)) target.push(by);
  else target.a = by;
  return value;
}

describe('property: the binder refuses for depth exactly as a walk of the whole input first would', () => {
  it('too deep where the walk says so, at its path; otherwise bound as JSON Schema reads the schema', () => {
    fc.assert(
      fc.property(schemaArbitrary.node, valueArbitrary, (schema, v) => {
        const input = { v };
        const tool = toolOf(schema, DEFS);
        const result = tool.bind(input);
        const path = pathBeyondDepth(input, LIMIT);
        if (path !== undefined) {
          expect(result).toMatchObject({ ok: false, invalid: { code: 'too_deep', path } });
          return;
        }
        // The schema as published: the binder's reading of it (an object that declares members is closed).
        const accepts = new Ajv2020({ strict: false }).compile(tool.inputSchema)(input);
        expect(result.ok).toBe(accepts);
        if (result.ok) expect(result.args).toEqual(input);
      }),
      { numRuns: 300 },
    );
  });
});
