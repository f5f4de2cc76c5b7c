// What the binder makes of anyOf and oneOf: the value an alternative binds, the refusal it reports when none takes
// the value, and a discriminated union's refusals of its tag.
import { describe, expect, it } from 'vitest';
import { probeRefusal, probeTool } from '../support/probeTool.js';

const shapes = {
  oneOf: [
    { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'] },
    { type: 'object', properties: { kind: { enum: ['square', 'box'] } }, required: ['kind'] },
  ],
};

describe('the value a union binds', () => {
  it('is what the first alternative that takes it binds (anyOf), defaults applied', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { a: { type: 'integer', default: 1 } } },
        { type: 'object', properties: { b: { type: 'integer', default: 2 } } },
      ],
    };
    expect(probeTool(schema).bind({ v: {} })).toEqual({ ok: true, args: { v: { a: 1 } } });
    expect(probeTool(schema).bind({ v: { b: 5 } })).toEqual({ ok: true, args: { v: { b: 5 } } });
  });

  it('is what the one alternative that takes it binds (oneOf)', () => {
    const schema = {
      oneOf: [{ type: 'object', properties: { a: { type: 'integer', default: 1 } } }, { type: 'string' }],
    };
    expect(probeTool(schema).bind({ v: {} })).toEqual({ ok: true, args: { v: { a: 1 } } });
    expect(probeTool(schema).bind({ v: 'x' })).toEqual({ ok: true, args: { v: 'x' } });
  });
});

describe('the refusal of a union no alternative takes', () => {
  it('is the first of the refusals that got equally far, noting the union', () => {
    const schema = {
      anyOf: [
        { type: 'string', minLength: 5 },
        { type: 'string', pattern: '^x' },
      ],
    };
    expect(probeRefusal(schema, 'ab')).toMatchObject({
      path: ['v'],
      code: 'too_short',
      message:
        "Tool 'probe' argument 'v' must be a string of at least 5 characters, but the value was the string \"ab\" (2 " +
        "characters); argument 'v' matches none of its alternatives (a string of at least 5 characters, or a string " +
        'matching the pattern ^x), and a string of at least 5 characters came closest.',
    });
  });

  it('is the refusal that got furthest into the value, whichever alternative it came from', () => {
    const schema = {
      anyOf: [
        { type: 'array', maxItems: 1 },
        { type: 'array', items: { type: 'string' } },
      ],
    };
    expect(probeRefusal(schema, ['a', 2])).toMatchObject({
      path: ['v', 1],
      code: 'invalid_type',
      message: expect.stringContaining('and an array of strings came closest.'),
    });
  });

  it('is a plain type refusal when the type fits no alternative, and points inside nested values', () => {
    const schema = {
      type: 'array',
      items: { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
    };
    expect(probeRefusal(schema, [{ id: 1 }, { id: true }])).toMatchObject({
      path: ['v', 1, 'id'],
      code: 'invalid_type',
      message:
        "Tool 'probe' argument 'v' item 1 member 'id' must be a string, or a whole number, but the value was " +
        'the boolean true.',
    });
  });
});

describe('the nullable idiom', () => {
  it('takes null and anything the other alternative takes, where that is any value', () => {
    const schema = { anyOf: [true, { type: 'null' }] };
    expect([null, 5, 'x', { a: [] }].map((v) => probeTool(schema).bind({ v }).ok)).toEqual([true, true, true, true]);
  });
});

describe('a discriminated union', () => {
  it('refuses a tag sent as null as missing, saying so', () => {
    expect(probeRefusal(shapes, { kind: null })).toMatchObject({
      path: ['v', 'kind'],
      code: 'required',
      message:
        'Tool \'probe\' argument \'v\' member \'kind\' is required and must be one of "circle", "square", "box", but ' +
        'it was null, which counts as missing.',
    });
  });

  it('refuses a value that is not an object as the wrong type, and binds by any value of the tag', () => {
    expect(probeRefusal(shapes, [1])).toMatchObject({ path: ['v'], code: 'invalid_type' });
    expect(probeTool(shapes).bind({ v: { kind: 'box' } })).toEqual({ ok: true, args: { v: { kind: 'box' } } });
    expect(probeRefusal(shapes, { kind: 'circle' })).toMatchObject({ path: ['v', 'r'], code: 'required' });
    // The tag is read as an own member only.
    expect(probeRefusal(shapes, Object.create({ kind: 'box' }))).toMatchObject({
      path: ['v', 'kind'],
      code: 'required',
    });
  });
});
