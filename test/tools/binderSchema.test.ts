// What the schema compiler makes of keywords on any node: enum and const holding arrays, if/then/else, $ref
// targets' defaults, and lists of types.
import { describe, expect, it } from 'vitest';
import { defineTool, ToolDeclarationError } from '../../src/index.js';
import { isMultipleOf } from '../../src/tools/binder/isMultipleOf.js';
import { probeOutcome, probeRefusal, probeTool } from '../support/probeTool.js';

describe('enum and const', () => {
  it('take a value equal to one of a list of objects only, as JSON', () => {
    const schema = { enum: [{ a: 1 }, { b: [2] }] };
    expect(probeOutcome(schema, { a: 1 })).toBe('ok');
    expect(probeOutcome(schema, { b: [2] })).toBe('ok');
    expect(probeOutcome(schema, { a: 2 })).toBe('not_a_known_value');
  });

  it('take null where a list of types names it beside others, or where no type is declared', () => {
    // As array items: an optional argument sent as null counts as not sent, whatever its type.
    const items = (schema: Record<string, unknown>) => ({ type: 'array', items: schema });
    expect(probeOutcome(items({ type: ['string', 'number', 'null'] }), [null, 'x', 1])).toBe('ok');
    expect(probeOutcome(items({ type: ['string', 'number'] }), [null])).toBe('invalid_type');
    expect(probeOutcome(items({ description: 'anything' }), [null])).toBe('ok');
  });

  it('compare arrays and objects as JSON, and scalars by value', () => {
    const schema = { enum: [[1, 2], 'x', null, { a: [1] }] };
    expect([[1, 2], 'x', null, { a: [1] }].map((v) => probeTool(schema).bind({ v }).ok)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([[2, 1], 'y', [1], { a: [2] }, '[1,2]'].map((v) => probeOutcome(schema, v))).toEqual(
      Array(5).fill('not_a_known_value'),
    );
    expect(probeOutcome({ const: [] }, [])).toBe('ok');
    expect(probeOutcome({ const: [] }, {})).toBe('not_a_known_value');
  });
});

describe('if, then and else', () => {
  // biome-ignore-start lint/suspicious/noThenProperty: JSON Schema keywords; these objects are never awaited.
  const rule = { if: { type: 'integer' }, then: { minimum: 0 }, else: { type: 'string', minLength: 1 } };
  // biome-ignore-end lint/suspicious/noThenProperty: JSON Schema keywords
  it('check then where the if takes the value, else where it does not, pointing inside the value', () => {
    expect([1, -1, 'a', '', 1.5].map((v) => probeOutcome(rule, v))).toEqual([
      'ok',
      'out_of_range',
      'ok',
      'too_short',
      'invalid_type',
    ]);
    const nested = { type: 'array', items: { type: 'object', properties: { n: rule } } };
    expect(probeRefusal(nested, [{ n: 2 }, { n: '' }])).toMatchObject({ path: ['v', 1, 'n'], code: 'too_short' });
  });

  it('ask nothing with an if alone, or with only one branch on the side it does not take', () => {
    expect(probeOutcome({ if: { type: 'integer' } }, 'x')).toBe('ok');
    expect(probeOutcome({ if: { type: 'integer' }, else: { type: 'string' } }, 3)).toBe('ok');
    expect(probeOutcome({ if: { type: 'integer' }, else: { type: 'string' } }, true)).toBe('invalid_type');
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword.
    expect(probeOutcome({ if: { type: 'integer' }, then: { maximum: 1 } }, 'x')).toBe('ok');
  });

  it('apply beside not, each in its turn', () => {
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword.
    const schema = { type: 'integer', not: { const: 0 }, if: { minimum: 10 }, then: { multipleOf: 10 } };
    expect([0, 5, 11, 20].map((v) => probeOutcome(schema, v))).toEqual([
      'not_a_known_value',
      'ok',
      'out_of_range',
      'ok',
    ]);
  });

  it('at the top level, name the members they refuse as arguments', () => {
    const tool = defineTool({
      name: 'cond',
      description: 'C.',
      input: {
        type: 'object',
        properties: { mode: { type: 'string' }, n: { type: 'integer' } },
        if: { properties: { mode: { const: 'count' } }, required: ['mode'] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword.
        then: { required: ['n'] },
      } as never,
      run: () => 'ok',
    });
    expect(tool.bind({ mode: 'count' })).toMatchObject({
      ok: false,
      invalid: {
        path: ['n'],
        argument: 'n',
        message: "Tool 'cond' argument 'n' is required and must be a value, but it was missing.",
      },
    });
    expect(tool.bind({ mode: 'count', n: 2 }).ok).toBe(true);
  });
});

describe('a default its own schema refuses', () => {
  const bad = { type: 'object', properties: { n: { type: 'integer', default: 'x' } } };
  it.each<[string, Record<string, unknown>, string]>([
    ['prefixItems', { type: 'array', prefixItems: [bad] }, 'prefixItems.0'],
    ['additionalProperties', { type: 'object', additionalProperties: bad }, 'additionalProperties'],
    ['patternProperties', { type: 'object', patternProperties: { '^a': bad } }, 'patternProperties.^a'],
    ['anyOf', { anyOf: [{ type: 'string' }, bad] }, 'anyOf.1'],
    ['oneOf', { oneOf: [bad, { type: 'string' }] }, 'oneOf.0'],
    [
      'a discriminated oneOf',
      {
        oneOf: [
          { ...bad, properties: { ...bad.properties, kind: { const: 'a' } }, required: ['kind'] },
          { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
        ],
      },
      'oneOf.0',
    ],
    ['contains', { type: 'array', contains: bad }, 'contains'],
    ['not', { not: bad }, 'not'],
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword.
    ['then', { if: { type: 'object' }, then: bad }, 'then'],
    ['else', { if: { type: 'object' }, else: bad }, 'else'],
    ['if', { if: bad }, 'if'],
  ])('is named by where it sits, inside %s', (_keyword, schema, at) => {
    expect(() => probeTool(schema)).toThrow(
      expect.objectContaining({ code: 'invalid_default', path: `input.properties.v.${at}.properties.n.default` }),
    );
  });
});

describe('a default inside a $ref target', () => {
  it('is checked when the tool is defined, and named by where it sits', () => {
    const declare = () =>
      defineTool({
        name: 'ref',
        description: 'R.',
        input: {
          type: 'object',
          properties: { p: { $ref: '#/$defs/P' } },
          $defs: { P: { type: 'object', properties: { n: { type: 'integer', default: 'x' } } } },
        } as never,
        run: () => 'ok',
      });
    expect(declare).toThrow(ToolDeclarationError);
    expect(declare).toThrow(
      expect.objectContaining({ code: 'invalid_default', path: 'input.$defs.P.properties.n.default' }),
    );
  });
});

describe('null', () => {
  it('is all a null type takes, and what no other type takes', () => {
    expect(
      [null, {}, [], 0, '', false].map(
        (v) => probeTool({ type: 'array', items: { type: 'null' } }).bind({ v: [v] }).ok,
      ),
    ).toEqual([true, false, false, false, false, false]);
    expect(probeRefusal({ type: 'array', items: { type: 'null' } }, [{}])).toMatchObject({
      path: ['v', 0],
      code: 'invalid_type',
      message: "Tool 'probe' argument 'v' item 0 must be null, but the value was the object {}.",
    });
    expect(probeOutcome({ type: 'array', items: { type: 'string' } }, [null])).toBe('invalid_type');
    expect(probeOutcome({ type: 'array', items: { type: ['string', 'null'] } }, [null, 'a'])).toBe('ok');
  });
});

describe('a list of types', () => {
  it('takes each type listed, integers where only integer is, and refuses the rest as the wrong type', () => {
    const schema = { type: ['integer', 'string'], minimum: 1, minLength: 2 };
    expect([1, 'ab', 0, 'a', 1.5, true, null, [], {}].map((v) => probeOutcome(schema, v))).toEqual([
      'ok',
      'ok',
      'out_of_range',
      'too_short',
      'invalid_type',
      'invalid_type',
      'ok', // an optional argument sent as null is absent
      'invalid_type',
      'invalid_type',
    ]);
    expect(probeOutcome({ type: ['number', 'boolean'] }, 1.5)).toBe('ok');
    expect(probeOutcome({ type: ['array', 'object'] }, [1])).toBe('ok');
    expect(probeTool({ type: ['boolean', 'null'] }, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(probeTool({ type: ['boolean', 'string'] }, true).bind({ v: null })).toMatchObject({
      ok: false,
      invalid: { code: 'required' },
    });
  });
});

describe('multipleOf beyond the safe integers', () => {
  it('divides the decimal the number is written as, where floating point remainders go wrong', () => {
    // 1e24 % 3 is 0 in floating point, yet 10^24 leaves 1; 7e22 % 7 is 2, yet 7·10^22 is a multiple of 7.
    expect(isMultipleOf(1e24, 3)).toBe(false);
    expect(isMultipleOf(7e22, 7)).toBe(true);
    expect(isMultipleOf(3, 0.1)).toBe(true);
    expect(isMultipleOf(9007199254740991, 3)).toBe(false);
    expect(probeOutcome({ type: 'number', multipleOf: 3 }, 1e24)).toBe('out_of_range');
  });
});
