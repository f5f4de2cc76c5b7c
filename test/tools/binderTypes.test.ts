// What the binder takes and refuses of each JSON Schema type: numbers and their bounds, arrays and their items, null,
// enums and constants, booleans and objects.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { probeOutcome, probeRefusal, probeTool } from '../support/probeTool.js';

const noop = () => 'ok';

describe('numbers', () => {
  it('inclusive bounds include the bound, exclusive ones do not', () => {
    expect([0, 1, 10, 11].map((v) => probeOutcome({ type: 'integer', minimum: 1, maximum: 10 }, v))).toEqual([
      'out_of_range',
      'ok',
      'ok',
      'out_of_range',
    ]);
    expect(
      [0, 0.5, 9.5, 10].map((v) => probeOutcome({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 }, v)),
    ).toEqual(['out_of_range', 'ok', 'ok', 'out_of_range']);
    expect([-1.5, -1, 2.5].map((v) => probeOutcome({ type: 'number', minimum: -1, maximum: 2.5 }, v))).toEqual([
      'out_of_range',
      'ok',
      'ok',
    ]);
  });

  it('an integer schema without bounds takes the whole safe range and nothing beyond', () => {
    const integer = { type: 'integer' };
    expect([-(2 ** 53) + 1, 2 ** 53 - 1, 0].map((v) => probeOutcome(integer, v))).toEqual(['ok', 'ok', 'ok']);
    expect([-(2 ** 53), 2 ** 53, 1.5].map((v) => probeOutcome(integer, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'invalid_type',
    ]);
    // A declared bound beyond the safe range is narrowed to it.
    expect(probeOutcome({ type: 'integer', maximum: 2 ** 60 }, 2 ** 53)).toBe('out_of_range');
    expect(probeOutcome({ type: 'integer', minimum: -(2 ** 60) }, -(2 ** 53))).toBe('out_of_range');
  });

  it('a number schema takes every finite number', () => {
    const number = { type: 'number' };
    expect([Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324, -0].map((v) => probeOutcome(number, v))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    expect([Infinity, -Infinity, Number.NaN].map((v) => probeOutcome(number, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
    expect(probeOutcome({ type: 'number', minimum: -0 }, 0)).toBe('ok');
  });

  it('tells the model to send a number, not a string, only when the string holds one', () => {
    expect(probeRefusal({ type: 'integer' }, '12').message).toContain(
      'the string "12"; send the number itself, not a string.',
    );
    expect(probeRefusal({ type: 'number' }, ' 1.5 ').message).toContain('; send the number itself');
    for (const text of ['', '   ', 'twelve', 'Infinity', '1e999']) {
      expect(probeRefusal({ type: 'number' }, text).message).not.toContain('send the number itself');
    }
    expect(probeRefusal({ type: 'number' }, true).message).toBe(
      `Tool 'probe' argument 'v' must be a number, but the value was the boolean true.`,
    );
  });

  it('refuses a boolean or null where a number belongs as the wrong type', () => {
    expect(probeOutcome({ type: 'number' }, false)).toBe('invalid_type');
    expect(probeOutcome({ type: 'integer' }, null)).toBe('ok'); // an optional argument sent as null is absent
    expect(probeTool({ type: 'integer' }, true).bind({ v: null })).toMatchObject({
      ok: false,
      invalid: { code: 'required' },
    });
  });
});

describe('arrays', () => {
  it('minItems and maxItems include their bound', () => {
    const schema = { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 };
    expect([[], [1], [1, 2], [1, 2, 3]].map((v) => probeOutcome(schema, v))).toEqual([
      'too_short',
      'ok',
      'ok',
      'too_long',
    ]);
    expect(probeRefusal(schema, []).message).toContain('it had 0 items.');
    expect(probeRefusal({ type: 'array', items: { type: 'integer' }, maxItems: 0 }, [1]).message).toBe(
      `Tool 'probe' argument 'v' must be an array of whole numbers of at most 0 items, but it had 1 item.`,
    );
  });

  it('binds each item, nested arrays and objects included, and reports the path of a bad one', () => {
    const schema = {
      type: 'array',
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', default: 7 } } } },
    };
    const tool = probeTool(schema);
    expect(tool.bind({ v: [[{}, { n: 1 }], []] })).toEqual({ ok: true, args: { v: [[{ n: 7 }, { n: 1 }], []] } });
    expect(tool.bind({ v: [[{ n: 1 }], [{}, { n: 'x' }]] })).toMatchObject({
      ok: false,
      invalid: { path: ['v', 1, 1, 'n'], code: 'invalid_type', argument: 'v' },
    });
    expect(tool.bind({ v: [[{ m: 1 }]] })).toMatchObject({
      ok: false,
      invalid: { path: ['v', 0, 0, 'm'], code: 'unknown_argument' },
    });
    expect(probeOutcome(schema, {})).toBe('invalid_type');
  });
});

describe('null, enums and constants', () => {
  it('a nullable type keeps null as a value, and checks anything else against the type', () => {
    const schema = { type: ['integer', 'null'], minimum: 1 };
    expect(probeTool(schema, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(probeOutcome(schema, 0)).toBe('out_of_range');
    expect(probeRefusal(schema, 'x').message).toBe(
      `Tool 'probe' argument 'v' must be a whole number of at least 1, or null, but the value was the string "x".`,
    );
  });

  it('an enum or const that holds null keeps null as a value', () => {
    expect(probeTool({ enum: ['a', null] }, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(probeTool({ const: null }, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(probeTool({ enum: ['a', 'b'] }, true).bind({ v: null })).toMatchObject({
      ok: false,
      invalid: { code: 'required' },
    });
  });

  it('a const allows exactly its value; an enum exactly its members', () => {
    expect([3, '3', 4].map((v) => probeOutcome({ const: 3 }, v))).toEqual([
      'ok',
      'not_a_known_value',
      'not_a_known_value',
    ]);
    expect(probeRefusal({ const: 3 }, 4).message).toBe(
      `Tool 'probe' argument 'v' must be exactly 3, but the value was the number 4.`,
    );
    expect([1, 2, 3].map((v) => probeOutcome({ type: 'integer', enum: [1, 2] }, v))).toEqual([
      'ok',
      'ok',
      'not_a_known_value',
    ]);
    expect(probeOutcome({ type: 'integer', enum: [1, 2] }, 'x')).toBe('invalid_type');
  });
});

describe('booleans and objects', () => {
  it('a boolean is exactly true or false', () => {
    expect([true, false, 0, 'true'].map((v) => probeOutcome({ type: 'boolean' }, v))).toEqual([
      'ok',
      'ok',
      'invalid_type',
      'invalid_type',
    ]);
    expect(probeRefusal({ type: 'boolean' }, 1).message).toBe(
      `Tool 'probe' argument 'v' must be true or false, but the value was the number 1.`,
    );
  });

  it('an object member is an object: not null, not an array', () => {
    const schema = { type: 'object', properties: {} };
    expect([{}, null, [], 'x'].map((v) => probeOutcome(schema, v))).toEqual([
      'ok',
      'ok',
      'invalid_type',
      'invalid_type',
    ]);
    expect(probeRefusal(schema, []).message).toBe(
      `Tool 'probe' argument 'v' must be an object, but the value was the array [].`,
    );
    expect(probeTool(schema).bind({ v: { x: 1 } })).toMatchObject({
      ok: false,
      invalid: {
        code: 'unknown_argument',
        path: ['v', 'x'],
        message: "Tool 'probe' argument 'v' has no member 'x'; it has no members.",
      },
    });
  });

  it('a tool without arguments takes an empty object and says so of any argument', () => {
    const tool = defineTool({ name: 'ping', description: 'P.', input: { type: 'object', properties: {} }, run: noop });
    expect(tool.bind({})).toEqual({ ok: true, args: {} });
    expect(tool.bind({ a: 1 })).toEqual({
      ok: false,
      invalid: {
        error: 'invalid_argument',
        tool: 'ping',
        argument: 'a',
        path: ['a'],
        code: 'unknown_argument',
        message: "Tool 'ping' has no argument 'a'; it takes no arguments.",
      },
    });
    expect(tool.bind(null)).toMatchObject({ ok: false, invalid: { code: 'invalid_type', path: [], argument: null } });
    expect(tool.bind('{}')).toEqual({ ok: true, args: {} });
    expect(tool.bind('[]')).toMatchObject({ ok: false, invalid: { code: 'invalid_type' } });
  });

  it('leaves an optional argument out when it was not sent, and binds only declared members', () => {
    const tool = defineTool({
      name: 'opt',
      description: 'O.',
      input: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
      run: noop,
    });
    const bound = tool.bind({ b: 0 });
    expect(bound).toEqual({ ok: true, args: { b: 0 } });
    expect(Object.keys((bound as { args: object }).args)).toEqual(['b']);
    expect(tool.bind({ a: '' })).toEqual({ ok: true, args: { a: '' } });
  });

  it('reads a prototype-named argument only as an own property', () => {
    const tool = defineTool({
      name: 'proto',
      description: 'P.',
      input: {
        type: 'object',
        properties: { toString: { type: 'string' }, valueOf: { type: 'string', default: 'v' } },
      },
      run: noop,
    });
    expect(tool.bind({})).toEqual({ ok: true, args: { valueOf: 'v' } });
    expect(tool.bind({ toString: 'x' })).toEqual({ ok: true, args: { toString: 'x', valueOf: 'v' } });
    const required = defineTool({
      name: 'proto2',
      description: 'P.',
      input: { type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] },
      run: noop,
    });
    expect(required.bind({})).toMatchObject({ ok: false, invalid: { code: 'required', path: ['constructor'] } });
  });
});
