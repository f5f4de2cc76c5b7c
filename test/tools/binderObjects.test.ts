// What the binder makes of an object: which members the bound value holds and in what order, the
// members it requires (declared or not), and the numbers it writes into its compiled check.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { compileSchema } from '../../src/tools/binder/compileSchema.js';
import type { PublishedSchema } from '../../src/tools/schema/publishedSchema.js';
import { probeRefusal, probeTool } from '../support/probeTool.js';

const noop = () => 'ok';

describe('the bound arguments', () => {
  it('hold required and defaulted members first, then the optional ones sent, then other keys as sent', () => {
    const tool = defineTool({
      name: 'order',
      description: 'O.',
      input: {
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'integer' },
          c: { type: 'string', default: 'x' },
          d: { type: 'boolean' },
        },
        required: ['b'],
        additionalProperties: true,
      },
      run: noop,
    });
    // The order run receives them in, and the order they are recorded and serialised in.
    const sent = tool.bind({ extra: 1, d: true, a: 'y', b: 2, more: null });
    expect(sent.ok && JSON.stringify(sent.args)).toBe('{"b":2,"c":"x","a":"y","d":true,"extra":1,"more":null}');
    // An optional member not sent is no key at all, not a key holding undefined.
    const bare = tool.bind({ b: 2 });
    expect(bare.ok && Object.keys(bare.args)).toEqual(['b', 'c']);
  });

  it('take a default for a member that is required too, when it is absent or null', () => {
    const tool = defineTool({
      name: 'both',
      description: 'B.',
      input: {
        type: 'object',
        properties: { unit: { type: 'string', default: 'C' }, value: { type: 'number' } },
        required: ['unit', 'value'],
      },
      run: noop,
    });
    expect(tool.bind({ value: 1 })).toEqual({ ok: true, args: { unit: 'C', value: 1 } });
    expect(tool.bind({ value: 1, unit: null })).toEqual({ ok: true, args: { unit: 'C', value: 1 } });
    expect(tool.bind({ unit: 'F' })).toMatchObject({ ok: false, invalid: { code: 'required', path: ['value'] } });
  });

  it('keep a required member that takes null when null is sent, and refuse it only when absent', () => {
    const tool = probeTool({ type: 'object', properties: { n: { type: ['string', 'null'] } }, required: ['n'] });
    expect(tool.bind({ v: { n: null } })).toEqual({ ok: true, args: { v: { n: null } } });
    expect(tool.bind({ v: {} })).toMatchObject({
      ok: false,
      invalid: {
        code: 'required',
        path: ['v', 'n'],
        message: "Tool 'probe' argument 'v' member 'n' is required and must be a string, or null, but it was missing.",
      },
    });
  });
});

describe('a member required but not declared', () => {
  it('must be there, with any value, where the object takes any other keys', () => {
    const schema = { type: 'object', required: ['id'] };
    expect(probeTool(schema).bind({ v: { id: null } })).toEqual({ ok: true, args: { v: { id: null } } });
    expect(probeTool(schema).bind({ v: { id: 1, x: 2 } })).toEqual({ ok: true, args: { v: { id: 1, x: 2 } } });
    expect(probeRefusal(schema, { x: 2 })).toEqual({
      error: 'invalid_argument',
      tool: 'probe',
      argument: 'v',
      path: ['v', 'id'],
      code: 'required',
      message: "Tool 'probe' argument 'v' member 'id' is required and must be a value, but it was missing.",
    });
  });

  it('must be there beside declared members, and is then checked as the other keys are', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name', 'id'],
      additionalProperties: { type: 'integer' },
    };
    expect(probeTool(schema).bind({ v: { name: 'n', id: 3 } })).toEqual({
      ok: true,
      args: { v: { name: 'n', id: 3 } },
    });
    expect(probeRefusal(schema, { name: 'n' })).toMatchObject({
      path: ['v', 'id'],
      code: 'required',
      message: "Tool 'probe' argument 'v' member 'id' is required and must be a whole number, but it was missing.",
    });
    // Declared members are refused first, in their own words.
    expect(probeRefusal(schema, {})).toMatchObject({ path: ['v', 'name'], code: 'required' });
    expect(probeRefusal(schema, { name: 'n', id: 'x' })).toMatchObject({ path: ['v', 'id'], code: 'invalid_type' });
  });

  it('is described by the schema the other keys take: any value where they may be anything', () => {
    const open = { type: 'object', required: ['id'], additionalProperties: true };
    expect(probeRefusal(open, {}).message).toBe(
      "Tool 'probe' argument 'v' member 'id' is required and must be a value, but it was missing.",
    );
    const dependent = { type: 'object', properties: { a: { type: 'string' } }, dependentRequired: { a: ['b'] } };
    expect(probeTool({ ...dependent, additionalProperties: true }).bind({ v: { a: 'x', b: 1 } }).ok).toBe(true);
    expect(probeRefusal({ ...dependent, additionalProperties: true }, { a: 'x' })).toMatchObject({
      path: ['v', 'b'],
      code: 'required',
      message:
        "Tool 'probe' argument 'v' member 'b' is required and must be a value, but it was missing (it is required " +
        "when 'a' is given).",
    });
  });

  it('must be there when a member it depends on is, in an object that takes any keys', () => {
    const schema = { type: 'object', dependentRequired: { a: ['b', 'c'] } };
    expect(probeTool(schema).bind({ v: { a: 1, b: 2, c: 3 } })).toEqual({
      ok: true,
      args: { v: { a: 1, b: 2, c: 3 } },
    });
    expect(probeTool(schema).bind({ v: { b: 2 } }).ok).toBe(true);
    expect(probeRefusal(schema, { a: 1, b: 2 })).toMatchObject({ path: ['v', 'c'], code: 'required' });
  });

  it('is looked up as an own key of the input, at the top level too', () => {
    const tool = defineTool({
      name: 'top',
      description: 'T.',
      input: { type: 'object', required: ['toString'], additionalProperties: true },
      run: noop,
    });
    expect(tool.bind({})).toMatchObject({ ok: false, invalid: { code: 'required', path: ['toString'] } });
    expect(tool.bind({ toString: 'x' })).toEqual({ ok: true, args: { toString: 'x' } });
  });
});

describe('keys beyond the declared ones', () => {
  it('are the object itself where it takes any: no copy is made', () => {
    const sent = { x: 1, nested: { deep: [null] } };
    const bound = probeTool({ type: 'object', additionalProperties: true }).bind({ v: sent });
    expect(bound.ok && bound.args.v).toBe(sent);
  });

  it('are checked by the pattern they match and kept as sent where no pattern matches and any key is allowed', () => {
    const schema = { type: 'object', patternProperties: { '^n_': { type: 'integer' } }, additionalProperties: true };
    expect(probeTool(schema).bind({ v: { n_a: 1, other: 'x' } })).toEqual({
      ok: true,
      args: { v: { n_a: 1, other: 'x' } },
    });
    expect(probeRefusal(schema, { other: 'x', n_a: 'one' })).toMatchObject({
      path: ['v', 'n_a'],
      code: 'invalid_type',
    });
  });

  it('are members, not arguments, even at the top level: an object among them is described as one', () => {
    const tool = defineTool({
      name: 'extra',
      description: 'E.',
      input: { type: 'object', additionalProperties: { type: 'object', additionalProperties: false } },
      run: noop,
    });
    expect(tool.bind({ k: 5 })).toMatchObject({
      ok: false,
      invalid: {
        path: ['k'],
        message: "Tool 'extra' argument 'k' must be an object, but the value was the number 5.",
      },
    });
    expect(tool.bind({ k: { x: 1 } })).toMatchObject({
      ok: false,
      invalid: { path: ['k', 'x'], message: "Tool 'extra' argument 'k' has no member 'x'; it has no members." },
    });
  });

  it('are refused all, in words, where the object takes none', () => {
    const closed = { type: 'object', additionalProperties: false };
    expect(probeTool(closed).bind({ v: {} })).toEqual({ ok: true, args: { v: {} } });
    expect(probeRefusal(closed, { a: 1 })).toMatchObject({
      path: ['v', 'a'],
      code: 'unknown_argument',
      message: "Tool 'probe' argument 'v' has no member 'a'; it has no members.",
    });
  });

  it('must have names the propertyNames schema takes, described as strings whatever its type says', () => {
    expect(probeRefusal({ type: 'object', propertyNames: false }, { a: 1 }).message).toBe(
      "Tool 'probe' argument 'v' has no member 'a'; member names must be nothing (no value is allowed here).",
    );
    expect(probeRefusal({ type: 'object', propertyNames: { not: { const: 'id' } } }, { id: 1 }).message).toBe(
      "Tool 'probe' argument 'v' has no member 'id'; member names must be a string.",
    );
    const top = defineTool({
      name: 'names',
      description: 'N.',
      input: { type: 'object', propertyNames: { maxLength: 2 }, additionalProperties: true },
      run: noop,
    });
    expect(top.bind({ abc: 1 })).toMatchObject({
      ok: false,
      invalid: {
        path: ['abc'],
        code: 'unknown_argument',
        message: "Tool 'names' has no argument 'abc'; argument names must be a string of at most 2 characters.",
      },
    });
  });
});

describe('counts in a refusal', () => {
  it('say member and item for one, members and items for more or none', () => {
    expect(probeRefusal({ type: 'object', maxProperties: 0 }, { a: 1 }).message).toBe(
      "Tool 'probe' argument 'v' must be an object of at most 0 members, but it had 1 member.",
    );
    expect(probeRefusal({ type: 'object', minProperties: 2 }, { a: 1 }).message).toContain('but it had 1 member.');
    expect(probeRefusal({ type: 'array', minItems: 2 }, [1]).message).toBe(
      "Tool 'probe' argument 'v' must be an array of values of at least 2 items, but it had 1 item.",
    );
    expect(probeRefusal({ type: 'array', minItems: 1 }, []).message).toContain('but it had 0 items.');
  });
});

describe('numbers in the compiled check', () => {
  it('are finite: a bound that is not would be a bug upstream, refused rather than written into code', () => {
    // The schema's keyword checks refuse these before any tool compiles them; the compiler refuses them again.
    for (const schema of [
      { type: 'number', minimum: Number.POSITIVE_INFINITY },
      { type: 'number', exclusiveMaximum: Number.NaN },
      { type: 'string', maxLength: Number.POSITIVE_INFINITY },
      { type: 'array', minItems: Number.NaN },
      { type: 'object', maxProperties: Number.NEGATIVE_INFINITY },
    ])
      expect(() => compileSchema('t', schema as PublishedSchema), JSON.stringify(schema)).toThrow(RangeError);
    expect(compileSchema('t', { type: 'number', minimum: -0, maximum: 1e21 })(1e21)).toBe(1e21);
  });
});
