// The bound arguments are copies the binder makes, and two of them have a fast way: an object whose optional members
// all came is made by one literal, and an array whose items are each bound as sent is copied whole. Each property
// binds the same input through the fast way and through the general one (a schema that means the same but takes the
// general way) and finds the same result, down to the order of the keys; and each copy is the binder's own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool, type BindResult } from '../../src/index.js';
import { probeTool } from '../support/probeTool.js';

function toolOf(input: Record<string, unknown>) {
  return defineTool({ name: 'probe', description: 'Probes.', input: input as never, run: () => 'ok' });
}

/**
 * What a bind comes to, with the order of every object's keys: a refusal by its place (and its code, unless `codes`
 * is false: a union refuses an item in words, and with a code, of its own).
 */
function outcome(result: BindResult<unknown>, codes = true): unknown {
  if (!result.ok) return { ...(codes ? { code: result.invalid.code } : {}), path: result.invalid.path };
  return JSON.stringify(result.args);
}

const TYPES = ['string', 'integer', 'boolean'] as const;
const valuesOf = { string: fc.string({ maxLength: 4 }), integer: fc.integer(), boolean: fc.boolean() };
const aValueOf = { string: 's', integer: 1, boolean: true };
const anyScalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null));

/** Members `m0`, `m1`, ... each with a type, required or not, and an input that sends some of them. */
const objectCase = fc
  .array(fc.record({ type: fc.constantFrom(...TYPES), required: fc.boolean() }), { minLength: 1, maxLength: 6 })
  .chain((members) =>
    fc.record({
      members: fc.constant(members),
      // Each member sent (a value of its type, or now and then any scalar), or left out; all sent half the time.
      sent: fc.tuple(
        ...members.map(({ type }) =>
          fc.option(fc.oneof({ weight: 4, arbitrary: valuesOf[type] as fc.Arbitrary<unknown> }, anyScalar), {
            nil: undefined,
            freq: 4,
          }),
        ),
      ),
      all: fc.boolean(),
      order: fc.shuffledSubarray(
        members.map((_, i) => i),
        { minLength: members.length },
      ),
    }),
  );

describe('an object whose optional members all came', () => {
  it('binds as when one of them is left out: the same members, in the same order', () => {
    fc.assert(
      fc.property(objectCase, ({ members, sent, all, order }) => {
        const properties: Record<string, unknown> = {};
        for (const [i, { type }] of members.entries()) properties[`m${i}`] = { type };
        const required = members.flatMap(({ required }, i) => (required ? [`m${i}`] : []));
        const input: Record<string, unknown> = {};
        // Sent in an order of their own: the bound object's order is the schema's.
        for (const i of order) {
          const value = all && sent[i] === undefined ? aValueOf[members[i]!.type] : sent[i];
          if (value !== undefined) input[`m${i}`] = value;
        }
        const fast = toolOf({ type: 'object', properties, required });
        // One more optional member, never sent: never all of them came.
        const general = toolOf({ type: 'object', properties: { ...properties, unsent: { type: 'string' } }, required });
        const bound = fast.bind(input);
        expect(outcome(bound)).toEqual(outcome(general.bind(input)));
        if (!bound.ok) return;
        // Required members first, then the optional ones sent, each group in the order declared (a null sent for a
        // member whose type takes none counts as left out).
        const names = Object.keys(properties);
        const expected = [
          ...names.filter((n) => required.includes(n)),
          ...names.filter((n) => !required.includes(n) && input[n] != null),
        ];
        expect(Object.keys(bound.args as object)).toEqual(expected);
        expect(bound.args).not.toBe(input);
      }),
      { numRuns: 400 },
    );
  });
});

/** Arrays of scalars, of objects, sparse, and anything else. */
const arrayInput = fc.oneof(
  fc.array(anyScalar, { maxLength: 6 }),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 6 }),
  fc.sparseArray(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 6 }),
  fc.array(fc.oneof(anyScalar, fc.dictionary(fc.constantFrom('a', 'b'), anyScalar)), { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Item schemas bound as sent, each with the same schema in a form that takes the general way (a union). */
const ITEM_SCHEMAS: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['strings', { items: { type: 'string' } }, { items: { anyOf: [{ type: 'string' }, false] } }],
  [
    'strings or whole numbers',
    { items: { type: ['string', 'integer'] } },
    { items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
  ],
  [
    'strings of at most 2 characters, or null',
    { items: { type: ['string', 'null'], maxLength: 2 } },
    { items: { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'null' }] } },
  ],
  ['anything', {}, { items: { anyOf: [true, false] } }],
  [
    'a tuple of a string and a whole number, then nothing',
    { prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    { prefixItems: [{ type: 'string' }, { anyOf: [{ type: 'integer' }, false] }], items: false },
  ],
  [
    'a tuple of a string, then booleans',
    { prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
    { prefixItems: [{ anyOf: [{ type: 'string' }, false] }], items: { type: 'boolean' } },
  ],
];

describe('an array whose items are each bound as sent', () => {
  for (const [name, fast, general] of ITEM_SCHEMAS) {
    it(`binds as the general way does, a plain array of its own (${name})`, () => {
      fc.assert(
        fc.property(arrayInput, (v) => {
          const bound = probeTool({ type: 'array', ...fast }).bind({ v });
          expect(outcome(bound, false)).toEqual(outcome(probeTool({ type: 'array', ...general }).bind({ v }), false));
          if (!bound.ok || bound.args.v === undefined) return;
          const copy = bound.args.v as unknown[];
          expect(copy).not.toBe(v);
          expect(Object.getPrototypeOf(copy)).toBe(Array.prototype);
          expect(copy).toEqual(Array.from(v as unknown[]));
          // A hole is bound as undefined, as the general way binds it: every index is the copy's own.
          expect(Object.keys(copy)).toHaveLength(copy.length);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('copies each item that is not bound as sent: an object item gets its defaults, whatever else it may be', () => {
    const withDefault = { type: 'object', properties: { a: { type: 'string', default: 'x' } } };
    expect(
      probeTool({ type: 'array', items: { ...withDefault, type: ['string', 'object'] } }).bind({ v: ['s', {}] }),
    ).toEqual({ ok: true, args: { v: ['s', { a: 'x' }] } });
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }, withDefault] };
    expect(probeTool(tuple).bind({ v: ['s', {}, 3] })).toEqual({ ok: true, args: { v: ['s', { a: 'x' }, 3] } });
    const shared = { a: 'y' };
    const bound = probeTool({ type: 'array', items: withDefault }).bind({ v: [shared] });
    expect(bound).toEqual({ ok: true, args: { v: [{ a: 'y' }] } });
    expect((bound as { args: { v: unknown[] } }).args.v[0]).not.toBe(shared);
  });
});
