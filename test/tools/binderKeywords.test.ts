import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { jsonValueCount } from '../../src/json/jsonValueCount.js';

/** A tool whose one argument `a` has the given schema; `bind` returns the bound args or the refusal. */
function withArgument(schema: unknown) {
  const tool = defineTool({
    name: 't',
    description: 'T.',
    input: { type: 'object', properties: { a: schema } } as never,
    run: () => 'ok',
  });
  return (value: unknown) => {
    const result = tool.bind({ a: value });
    return result.ok
      ? { args: result.args }
      : { code: result.invalid.code, path: result.invalid.path, message: result.invalid.message };
  };
}

const refusal = (code: string, path: (string | number)[], message: string) => ({
  code,
  path,
  message: `Tool 't' ${message}`,
});

describe('what the model is told, per keyword (verbatim)', () => {
  it.each([
    [
      'anyOf: the nullable idiom reads as the type or null',
      { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
      0,
      refusal(
        'out_of_range',
        ['a'],
        "argument 'a' must be a whole number of at least 1, or null, but the value was the number 0.",
      ),
    ],
    [
      'anyOf: no alternative has the type',
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      5,
      refusal(
        'invalid_type',
        ['a'],
        "argument 'a' must be a string, or an array of strings, but the value was the number 5.",
      ),
    ],
    [
      'anyOf: the alternative that came closest, and why it failed',
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      ['x', 2],
      refusal(
        'invalid_type',
        ['a', 1],
        "argument 'a' item 1 must be a string, but the value was the number 2; argument 'a' matches none of its " +
          'alternatives (a string, or an array of strings), and an array of strings came closest.',
      ),
    ],
    [
      'oneOf: more than one alternative matched',
      { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 5 }] },
      'abc',
      refusal(
        'ambiguous',
        ['a'],
        "argument 'a' must match exactly one of its alternatives (a string, or a string of at most 5 characters), " +
          'but the value was the string "abc", which is a string and a string of at most 5 characters.',
      ),
    ],
    [
      'type arrays',
      { type: ['string', 'number'] },
      true,
      refusal('invalid_type', ['a'], "argument 'a' must be a string or a number, but the value was the boolean true."),
    ],
    [
      'additionalProperties: a schema',
      { type: 'object', additionalProperties: { type: 'integer' } },
      { x: 1, y: 'z' },
      refusal(
        'invalid_type',
        ['a', 'y'],
        "argument 'a' member 'y' must be a whole number, but the value was the string \"z\".",
      ),
    ],
    [
      'patternProperties',
      { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      { 'x-a': 1 },
      refusal(
        'invalid_type',
        ['a', 'x-a'],
        "argument 'a' member 'x-a' must be a string, but the value was the number 1.",
      ),
    ],
    [
      'patternProperties: a name no pattern matches',
      { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      { y: 1 },
      refusal('unknown_argument', ['a', 'y'], "argument 'a' has no member 'y'; its members are names matching ^x-."),
    ],
    [
      'propertyNames',
      { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
      { ok: 1, 'Bad Key': 2 },
      refusal(
        'unknown_argument',
        ['a', 'Bad Key'],
        "argument 'a' has no member 'Bad Key'; member names must be a string matching the pattern ^[a-z]+$.",
      ),
    ],
    [
      'minProperties',
      { type: 'object', minProperties: 1 },
      {},
      refusal('too_short', ['a'], "argument 'a' must be an object of at least 1 member, but it had 0 members."),
    ],
    [
      'maxProperties',
      { type: 'object', maxProperties: 1 },
      { a: 1, b: 2 },
      refusal('too_long', ['a'], "argument 'a' must be an object of at most 1 member, but it had 2 members."),
    ],
    [
      'const of an object',
      { const: { a: 1 } },
      { a: 2 },
      refusal(
        'not_a_known_value',
        ['a'],
        'argument \'a\' must be exactly {"a":1}, but the value was the object {"a":2}.',
      ),
    ],
    [
      'prefixItems',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      ['a', 'b'],
      refusal(
        'invalid_type',
        ['a', 1],
        'argument \'a\' item 1 must be a whole number, but the value was the string "b".',
      ),
    ],
    [
      'items: false after a tuple',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      ['a', 1, 2],
      refusal('too_long', ['a'], "argument 'a' must be an array of a string, then a whole number, but it had 3 items."),
    ],
    [
      'uniqueItems',
      { type: 'array', items: { type: 'string' }, uniqueItems: true },
      ['a', 'b', 'a'],
      refusal(
        'duplicate_item',
        ['a'],
        'argument \'a\' must be an array of different strings, but item 2 (the string "a") is the same as an ' +
          'earlier one.',
      ),
    ],
    [
      'contains',
      { type: 'array', contains: { type: 'integer' } },
      ['a'],
      refusal(
        'missing_item',
        ['a'],
        "argument 'a' must be an array with at least 1 item that is a whole number, but it had 0.",
      ),
    ],
    [
      'maxContains',
      { type: 'array', contains: { type: 'integer' }, maxContains: 1 },
      [1, 2],
      refusal(
        'too_long',
        ['a'],
        "argument 'a' must be an array with at most 1 item that is a whole number, but it had 2.",
      ),
    ],
    [
      'multipleOf',
      { type: 'number', multipleOf: 0.5 },
      0.3,
      refusal(
        'out_of_range',
        ['a'],
        "argument 'a' must be a number a multiple of 0.5, but the value was the number 0.3.",
      ),
    ],
    [
      'exclusiveMinimum (2020 spelling)',
      { type: 'number', exclusiveMinimum: 0 },
      0,
      refusal('out_of_range', ['a'], "argument 'a' must be a number greater than 0, but the value was the number 0."),
    ],
    [
      'exclusiveMaximum (draft-04 spelling)',
      { type: 'number', maximum: 10, exclusiveMaximum: true },
      10,
      refusal('out_of_range', ['a'], "argument 'a' must be a number less than 10, but the value was the number 10."),
    ],
    [
      'format: date',
      { type: 'string', format: 'date' },
      '2024-02-30',
      refusal(
        'invalid_format',
        ['a'],
        'argument \'a\' must be a string in date format, but the value was the string "2024-02-30".',
      ),
    ],
    [
      'not',
      { type: 'string', not: { const: 'admin' } },
      'admin',
      refusal(
        'not_a_known_value',
        ['a'],
        'argument \'a\' must be anything but exactly "admin", but the value was the string "admin".',
      ),
    ],
    [
      'dependentRequired',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        dependentRequired: { a: ['b'] },
      },
      { a: 'x' },
      refusal(
        'required',
        ['a', 'b'],
        "argument 'a' member 'b' is required and must be a string, but it was missing (it is required when 'a' " +
          'is given).',
      ),
    ],
    [
      "OpenAPI 3.0's nullable",
      { type: 'string', nullable: true },
      5,
      refusal('invalid_type', ['a'], "argument 'a' must be a string, or null, but the value was the number 5."),
    ],
    [
      'a false schema',
      false,
      1,
      refusal(
        'not_a_known_value',
        ['a'],
        "argument 'a' must be nothing (no value is allowed here), but the value was the number 1.",
      ),
    ],
  ])('%s', (_keyword, schema, value, expected) => {
    expect(withArgument(schema)(value)).toEqual(expected);
  });
});

describe('discriminated unions', () => {
  // A tool made per call, inside the tests (a tool made as the describe is collected compiles outside them).
  const shape = (value: unknown) =>
    withArgument({
      oneOf: [
        { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'] },
        {
          type: 'object',
          properties: { kind: { const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
        },
      ],
    })(value);

  it('names the discriminator and its allowed values when the value is unknown', () => {
    expect(shape({ kind: 'triangle' })).toEqual(
      refusal(
        'not_a_known_value',
        ['a', 'kind'],
        'argument \'a\' member \'kind\' must be one of "circle", "square", but the value was the string "triangle".',
      ),
    );
  });

  it('names the discriminator when it is missing', () => {
    expect(shape({ r: 1 })).toEqual(
      refusal(
        'required',
        ['a', 'kind'],
        'argument \'a\' member \'kind\' is required and must be one of "circle", "square", but it was missing.',
      ),
    );
  });

  it('checks the chosen alternative with its own message', () => {
    expect(shape({ kind: 'square', side: 'x' })).toEqual(
      refusal(
        'invalid_type',
        ['a', 'side'],
        "argument 'a' member 'side' must be a number, but the value was the string \"x\".",
      ),
    );
    expect(shape({ kind: 'circle', r: 2 })).toEqual({ args: { a: { kind: 'circle', r: 2 } } });
  });
});

describe('what reaches run', () => {
  it('binds null as the default where a nullable schema has one (pydantic Optional[T] = None)', () => {
    const bind = withArgument({ anyOf: [{ type: 'string' }, { type: 'null' }], default: 'fallback' });
    expect(bind(null)).toEqual({ args: { a: 'fallback' } });
    expect(bind('x')).toEqual({ args: { a: 'x' } });
  });

  it('keeps null as a value where a nullable schema has no default', () => {
    expect(withArgument({ anyOf: [{ type: 'string' }, { type: 'null' }] })(null)).toEqual({ args: { a: null } });
  });

  it('passes a free-form object as sent, any keys and values', () => {
    const sent = JSON.parse('{"x":1,"nested":{"deep":[null,true]},"__proto__":{"polluted":true}}');
    const result = withArgument({ type: 'object' })(sent) as { args: { a: Record<string, unknown> } };
    expect(result.args.a).toBe(sent);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps extra keys an additionalProperties schema allows as own properties, __proto__ included', () => {
    const result = withArgument({ type: 'object', additionalProperties: { type: 'object' } })(
      JSON.parse('{"__proto__":{"polluted":true}}'),
    ) as { args: { a: Record<string, unknown> } };
    expect(Object.getPrototypeOf(result.args.a)).toBe(Object.prototype);
    expect(Object.hasOwn(result.args.a, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // An ordinary member, like any other the tool receives: listed, serialised, writable and deletable.
    expect(Object.getOwnPropertyDescriptor(result.args.a, '__proto__')).toEqual({
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(JSON.parse(JSON.stringify(result.args.a))).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
  });

  it('applies defaults at any depth: in array items, nested objects, union alternatives and $ref targets', () => {
    const tool = defineTool({
      name: 'd',
      description: 'D.',
      input: {
        type: 'object',
        properties: {
          list: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                n: { type: 'integer', default: 3 },
                o: { type: 'object', properties: { deep: { type: 'string', default: 'x' } }, default: {} },
              },
            },
          },
          either: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/Opts' }] },
        },
        $defs: { Opts: { type: 'object', properties: { level: { type: 'integer', default: 1 } } } },
      } as never,
      run: () => 'ok',
    });
    expect(tool.bind({ list: [{}, { n: 1, o: {} }], either: {} })).toEqual({
      ok: true,
      args: {
        list: [
          { n: 3, o: {} },
          { n: 1, o: { deep: 'x' } },
        ],
        either: { level: 1 },
      },
    });
  });

  it('binds a recursive schema at any depth up to the input limit, and refuses beyond it with the limit', () => {
    const tool = defineTool({
      name: 'tree',
      description: 'T.',
      input: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        $defs: {
          Node: {
            type: 'object',
            properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } },
            required: ['name'],
          },
        },
      } as never,
      run: () => 'ok',
    });
    const nest = (levels: number, leaf: unknown): unknown => {
      let node = leaf;
      for (let i = 0; i < levels; i++) node = { name: `n${i}`, kids: [node] };
      return node;
    };
    expect(tool.bind({ root: nest(31, { name: 'leaf' }) }).ok).toBe(true);
    const wrong = tool.bind({ root: nest(2, { name: 7 }) });
    expect(wrong.ok || wrong.invalid.path).toEqual(['root', 'kids', 0, 'kids', 0, 'name']);
    const deep = tool.bind({ root: nest(40, { name: 'leaf' }) });
    expect(deep.ok || deep.invalid.code).toBe('too_deep');
  });
});

describe('what the model is shown', () => {
  const published = (input: unknown) =>
    defineTool({ name: 't', description: 'T.', input: input as never, run: () => 'ok' }).inputSchema;

  it("keeps the author's additionalProperties, and adds false only where the author said nothing", () => {
    expect(
      published({
        type: 'object',
        properties: {
          meta: { type: 'object', additionalProperties: true },
          closed: { type: 'object', properties: {} },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        meta: { type: 'object', additionalProperties: true },
        closed: { type: 'object', properties: {}, additionalProperties: false },
      },
      additionalProperties: false,
    });
  });

  it('keeps $ref and $defs, and passes annotations through untouched', () => {
    const input = {
      type: 'object',
      title: 'Search',
      $comment: 'generated',
      'x-origin': { tool: 'search' },
      properties: {
        kind: { $ref: '#/$defs/Kind', description: 'which', examples: ['a'], deprecated: true },
        note: { type: 'string', readOnly: true, writeOnly: false },
      },
      $defs: { Kind: { enum: ['a', 'b'], title: 'Kind' } },
      additionalProperties: false,
    };
    expect(published(input)).toEqual(input);
  });

  it('merges allOf into one schema and moves constraints beside a union into each alternative', () => {
    expect(
      published({
        type: 'object',
        properties: {
          merged: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { required: ['a'] }] },
          union: {
            type: 'object',
            properties: { id: { type: 'string' } },
            oneOf: [{ required: ['id'] }, { properties: { q: { type: 'string' } } }],
          },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        merged: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false, required: ['a'] },
        union: {
          oneOf: [
            { required: ['id'], type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
            {
              properties: { q: { type: 'string' }, id: { type: 'string' } },
              additionalProperties: false,
              type: 'object',
            },
          ],
        },
      },
      additionalProperties: false,
    });
  });

  it('writes draft-04, draft-07 and OpenAPI 3.0 spellings in their 2020-12 form', () => {
    expect(
      published({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          n: { type: 'number', minimum: 0, exclusiveMinimum: true },
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
          maybe: { type: 'string', nullable: true },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        n: { type: 'number', exclusiveMinimum: 0 },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        maybe: { type: ['string', 'null'] },
      },
      additionalProperties: false,
    });
  });

  it('gives a root $ref the object type the Messages API wants, with the target merged in', () => {
    expect(
      published({
        $ref: '#/components/schemas/Pet',
        components: {
          schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        },
      }),
    ).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });
});

describe('the root', () => {
  it('refuses a union as the whole input, which the Messages API refuses, with advice that applies', () => {
    expect(() =>
      defineTool({
        name: 'pick',
        description: 'P.',
        input: {
          anyOf: [
            { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
            { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          ],
        } as never,
        run: () => 'ok',
      }),
    ).toThrow(
      "Tool 'pick' has an input schema legate cannot use at input.anyOf: the Messages API refuses a tool whose " +
        "input is a union ('anyOf', 'oneOf' or 'allOf' at the top level); make the union one argument of the input " +
        'object, or declare one tool per alternative.',
    );
  });

  it('describes a typeless condition by the type its keywords are about', () => {
    expect(withArgument({ type: 'array', contains: { pattern: '^x' }, minContains: 2 })(['x1', 'y'])).toEqual(
      refusal(
        'missing_item',
        ['a'],
        "argument 'a' must be an array with at least 2 items that are a string matching the pattern ^x, but it had 1.",
      ),
    );
  });
});

describe('conditions', () => {
  // A tool made per call, inside the tests (a tool made as the describe is collected compiles outside them).
  const order = (value: unknown) =>
    withArgument({
      type: 'object',
      properties: { kind: { enum: ['pickup', 'delivery'] }, address: { type: 'string' } },
      required: ['kind'],
      if: { properties: { kind: { const: 'delivery' } } },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; this object is never awaited.
      then: { required: ['address'] },
    })(value);

  it('applies then where the if matches, with the other keys of the object present', () => {
    expect(order({ kind: 'delivery', address: 'Main St 1' })).toEqual({
      args: { a: { kind: 'delivery', address: 'Main St 1' } },
    });
    expect(order({ kind: 'delivery' })).toEqual(
      refusal(
        'required',
        ['a', 'address'],
        "argument 'a' member 'address' is required and must be a value, but it was missing.",
      ),
    );
    expect(order({ kind: 'pickup' })).toEqual({ args: { a: { kind: 'pickup' } } });
  });

  it('does not close a condition: contains and not see objects with other keys too', () => {
    const tasks = withArgument({
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, done: { type: 'boolean' } } },
      contains: { properties: { done: { const: false } }, required: ['done'] },
    });
    expect(
      tasks([
        { id: 'a', done: true },
        { id: 'b', done: false },
      ]),
    ).toEqual({
      args: {
        a: [
          { id: 'a', done: true },
          { id: 'b', done: false },
        ],
      },
    });
    expect(tasks([{ id: 'a', done: true }])).toMatchObject({ code: 'missing_item', path: ['a'] });
  });
});

describe('the nullable idiom around a closed set', () => {
  it.each([
    ['inline', { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] }],
    ['by $ref', { anyOf: [{ $ref: '#/$defs/E' }, { type: 'null' }] }],
    ['without a type', { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] }],
  ])('takes null and the values, and refuses others (%s)', (_how, schema) => {
    const tool = defineTool({
      name: 't',
      description: 'T.',
      input: {
        type: 'object',
        properties: { a: schema },
        required: ['a'],
        $defs: { E: { type: 'string', enum: ['a', 'b'] } },
      } as never,
      run: () => 'ok',
    });
    expect(tool.bind({ a: null })).toEqual({ ok: true, args: { a: null } });
    expect(tool.bind({ a: 'b' })).toEqual({ ok: true, args: { a: 'b' } });
    expect(tool.bind({ a: 'c' })).toMatchObject({ ok: false, invalid: { code: 'not_a_known_value', path: ['a'] } });
  });
});

describe('found by the corpus differential', () => {
  const tool = (input: unknown) => defineTool({ name: 't', description: 'T.', input: input as never, run: () => 'ok' });

  it("moves OpenAPI's int32 into the description on any type, so no checker reads it as a rule", () => {
    expect(tool({ type: 'object', properties: { n: { type: 'integer', format: 'int32' } } }).inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', description: 'Format: int32.' } },
      additionalProperties: false,
    });
  });

  it('defines a recursive model with a default behind a root $ref (pydantic), checking each default once', () => {
    const recursive = tool({
      $defs: {
        Foo: {
          type: 'object',
          properties: { sibling: { anyOf: [{ $ref: '#/$defs/Foo' }, { type: 'null' }], default: null } },
        },
      },
      $ref: '#/$defs/Foo',
    });
    expect(recursive.bind({ sibling: { sibling: {} } })).toEqual({
      ok: true,
      args: { sibling: { sibling: { sibling: null } } },
    });
  });

  it('reads a null standing for an absent member as absent in conditions too', () => {
    const conditional = tool({
      type: 'object',
      properties: { e: { type: 'string' } },
      if: false,
      else: { required: ['e'] },
    });
    expect(conditional.bind({ e: null })).toMatchObject({ ok: false, invalid: { code: 'required', path: ['e'] } });
    const dependent = tool({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      dependentRequired: { a: ['b'] },
    });
    expect(dependent.bind({ a: null })).toEqual({ ok: true, args: {} });
  });

  it("takes null once for OpenAPI's nullable on a union whose alternative takes null already", () => {
    const stop = tool({
      type: 'object',
      properties: {
        stop: {
          oneOf: [
            { type: 'string', nullable: true },
            { type: 'array', items: { type: 'string' } },
          ],
          nullable: true,
          default: null,
        },
      },
    });
    expect(stop.bind({ stop: null })).toEqual({ ok: true, args: { stop: null } });
    expect(stop.bind({ stop: 3 })).toMatchObject({
      ok: false,
      invalid: {
        message:
          "Tool 't' argument 'stop' must be a string, or null, or an array of strings, but the value was the number 3.",
      },
    });
  });
});

describe('allOf parts that meet under one property', () => {
  it('are read once more as a whole: a union from one part and a type from the other become one schema', () => {
    const tool = defineTool({
      name: 't',
      description: 'T.',
      input: {
        type: 'object',
        allOf: [
          { properties: { top: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } },
          { properties: { top: { type: 'integer', minimum: 0, maximum: 20 } } },
        ],
      } as never,
      run: () => 'ok',
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { top: { type: 'integer', minimum: 0, maximum: 20 } },
      additionalProperties: false,
    });
    expect(tool.bind({ top: null })).toEqual({ ok: true, args: {} });
  });
});

describe('keys bound through patterns, nested', () => {
  it('binds each level through its own pattern, defaults applied inside', () => {
    const bind = withArgument({
      type: 'object',
      patternProperties: {
        '^env_': {
          type: 'object',
          patternProperties: { '^[A-Z]+$': { type: 'object', properties: { on: { type: 'boolean', default: true } } } },
        },
      },
    });
    expect(bind({ env_prod: { LOG: {}, TRACE: { on: false } } })).toEqual({
      args: { a: { env_prod: { LOG: { on: true }, TRACE: { on: false } } } },
    });
    expect(bind({ env_prod: { log: {} } })).toMatchObject({ code: 'unknown_argument', path: ['a', 'env_prod', 'log'] });
  });
});

describe('schemas built to exhaust the reader', () => {
  const declare = (input: unknown) => () =>
    defineTool({ name: 't', description: 'T.', input: input as never, run: () => 'ok' });

  it('refuses schemas nested thousands deep, or through a chain of $refs, with a declaration error', () => {
    let nested: unknown = { type: 'string' };
    for (let i = 0; i < 5000; i++) nested = { not: nested };
    expect(declare({ type: 'object', properties: { a: nested } })).toThrow(
      expect.objectContaining({ name: 'ToolDeclarationError', code: 'unsupported_schema' }),
    );
    const chain: Record<string, unknown> = { d5000: { type: 'string' } };
    for (let i = 0; i < 5000; i++) chain[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    expect(declare({ type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, $defs: chain })).toThrow(
      /nests more than 200 schemas inside one another here \(through '\$ref's too\); flatten it\./,
    );
  });

  /**
   * A union under properties beside a union, `levels` deep, as JSON text (every part written out, as an MCP server
   * sends it): its constraints are moved into each alternative, so the published schema multiplies per level.
   */
  const nestedUnions = (levels: number, alternatives: number): unknown => {
    let schema: unknown = { type: 'string' };
    for (let level = 0; level < levels; level++) {
      const names = ['a', 'b', 'c', 'd'].slice(0, alternatives);
      schema = {
        type: 'object',
        properties: Object.fromEntries(names.map((name) => [name, schema])),
        anyOf: names.map((name) => ({ required: [name] })),
      };
    }
    return JSON.parse(JSON.stringify({ type: 'object', properties: { x: schema } }));
  };

  it('refuses nested unions that would multiply past the bound (issue 31: 7 levels overflowed the stack)', () => {
    // Before the bound: 6 levels took seconds and hundreds of MB, 7 threw a raw RangeError.
    expect(declare(nestedUnions(7, 3))).toThrow(
      expect.objectContaining({
        name: 'ToolDeclarationError',
        code: 'unsupported_schema',
        message: expect.stringMatching(
          new RegExp(
            String.raw`at input\.properties\.x(\.properties\.[abc])+\.anyOf: moving the constraints beside 'anyOf' ` +
              'into each of its alternatives .* more than 100000 schema values',
          ),
        ),
      }),
    );
    // Said once, where the bound was passed, not at every union after it.
    expect(declare(nestedUnions(7, 3))).toThrow(/^Tool 't' has an input schema legate cannot use at input\.properties/);
  });

  it('defines any nest of unions within the bound, and refuses the others clearly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 2, max: 4 }), (levels, alternatives) => {
        let outcome: unknown;
        try {
          outcome = declare(nestedUnions(levels, alternatives))();
        } catch (error) {
          outcome = error;
        }
        if (outcome instanceof Error)
          expect(outcome).toMatchObject({ name: 'ToolDeclarationError', code: 'unsupported_schema' });
        else expect(jsonValueCount((outcome as { inputSchema: unknown }).inputSchema, 200_000)).toBeLessThan(200_000);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses an object graph with a cycle (not JSON) instead of looping', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(declare(cyclic)).toThrow(expect.objectContaining({ code: 'unsupported_schema' }));
  });
});
