// What the binder makes of an array: the same item twice, the items it must contain, and a tuple closed by
// `items: false`.
import { describe, expect, it } from 'vitest';
import { probeOutcome, probeRefusal, probeTool } from '../support/probeTool.js';

describe('uniqueItems', () => {
  it('finds objects and arrays equal as JSON, whatever the order of their keys', () => {
    const unique = { type: 'array', uniqueItems: true };
    expect(probeRefusal(unique, [{ a: 1, b: [2] }, 'x', { b: [2], a: 1 }])).toMatchObject({
      path: ['v'],
      code: 'duplicate_item',
      message: expect.stringContaining('but item 2 (the object {"b":[2],"a":1}) is the same as an earlier one.'),
    });
    expect(probeOutcome(unique, [[1, 2], [2, 1], { a: 1 }, { a: 2 }, {}, []])).toBe('ok');
    expect(probeOutcome(unique, [[], null, [], 1])).toBe('duplicate_item');
  });

  it('tells scalars apart by type and value, and apart from objects that JSON writes alike', () => {
    const unique = { type: 'array', uniqueItems: true };
    expect(probeOutcome(unique, [1, '1', true, 'true', null, 'null', [1], '[1]', {}, '{}'])).toBe('ok');
    expect(probeOutcome(unique, [null, 0, null])).toBe('duplicate_item');
    expect(probeOutcome(unique, ['a', 'b', 'a'])).toBe('duplicate_item');
    // Values no JSON holds, from a caller in the process: compared as values, not as the null JSON writes for them.
    expect(probeOutcome(unique, [Number.NaN, Number.POSITIVE_INFINITY, null, Number.NEGATIVE_INFINITY])).toBe('ok');
  });

  it('is no rule where the schema does not ask for it', () => {
    expect(probeTool({ type: 'array' }).bind({ v: [1, 1, { a: 1 }, { a: 1 }] })).toEqual({
      ok: true,
      args: { v: [1, 1, { a: 1 }, { a: 1 }] },
    });
  });
});

describe('contains', () => {
  it('counts the matching items against minContains and maxContains, in words for each count', () => {
    const schema = { type: 'array', contains: { type: 'integer' }, minContains: 2, maxContains: 3 };
    expect(
      [
        ['a', 1],
        [1, 'a', 2],
        [1, 2, 3],
        [1, 2, 3, 4],
      ].map((v) => probeOutcome(schema, v)),
    ).toEqual(['missing_item', 'ok', 'ok', 'too_long']);
    expect(probeRefusal(schema, ['a', 1]).message).toBe(
      "Tool 'probe' argument 'v' must be an array with at least 2 items that are a whole number, but it had 1.",
    );
    expect(probeRefusal(schema, [1, 2, 3, 4]).message).toBe(
      "Tool 'probe' argument 'v' must be an array with at most 3 items that are a whole number, but it had 4.",
    );
  });

  it('asks nothing of an array without it, and nothing with a minContains of 0', () => {
    expect(probeOutcome({ type: 'array', items: { type: 'string' } }, [])).toBe('ok');
    const none = { type: 'array', contains: { type: 'integer' }, minContains: 0, maxContains: 1 };
    expect([[], ['a'], [1], [1, 2]].map((v) => probeOutcome(none, v))).toEqual(['ok', 'ok', 'ok', 'too_long']);
  });
});

describe('a tuple closed by items: false', () => {
  it('takes fewer items than the tuple, and refuses more, by the smaller of its length and maxItems', () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false };
    expect([[], ['a'], ['a', 1]].map((v) => probeOutcome(tuple, v))).toEqual(['ok', 'ok', 'ok']);
    expect(probeRefusal(tuple, ['a', 1, 'b']).code).toBe('too_long');
    expect(probeOutcome({ ...tuple, maxItems: 1 }, ['a', 1])).toBe('too_long');
    expect(probeOutcome({ ...tuple, maxItems: 5 }, ['a', 1, 2])).toBe('too_long');
  });
});

describe('objects inside an array', () => {
  it('have members, not arguments, in the words of a refusal, in a tuple and after it', () => {
    const schema = {
      type: 'array',
      prefixItems: [{ type: 'object', additionalProperties: false }],
      items: { type: 'object', properties: { n: { type: 'integer' } } },
    };
    expect(probeRefusal(schema, [{ x: 1 }]).message).toBe(
      "Tool 'probe' argument 'v' item 0 has no member 'x'; it has no members.",
    );
    expect(probeRefusal(schema, [{}, { m: 1 }]).message).toBe(
      "Tool 'probe' argument 'v' item 1 has no member 'm'; its members are 'n'.",
    );
    expect(probeRefusal(schema, [{}, 5]).message).toBe(
      "Tool 'probe' argument 'v' item 1 must be an object, but the value was the number 5.",
    );
  });
});
