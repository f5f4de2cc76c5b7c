// Behaviours of the binder that the code gets right and that mutation testing showed no test
// pinned down. Every tool is defined inside its test: its schema is compiled there, so a
// mutant in the compiler is active when it runs (a tool defined at module load is compiled
// once, before any mutant is switched on).
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, type InvalidArgument, type JsonSchema, ToolDeclarationError } from '../../src/index.js';
import { describeExpectation } from '../../src/tools/binder/expectation.js';
import type { PublishedSchema } from '../../src/tools/schema/prepareSchema.js';

const noop = () => 'ok';

/** A tool with one optional argument `v` of the given schema. */
function toolWith(schema: Record<string, unknown>, required = false) {
  return defineTool({
    name: 'probe',
    description: 'Probes.',
    input: { type: 'object', properties: { v: schema as JsonSchema }, ...(required ? { required: ['v'] } : {}) },
    run: noop,
  });
}

function outcome(schema: Record<string, unknown>, value: unknown): string {
  const result = toolWith(schema).bind({ v: value });
  return result.ok ? 'ok' : result.invalid.code;
}

function invalid(schema: Record<string, unknown>, value: unknown): InvalidArgument {
  const result = toolWith(schema).bind({ v: value });
  if (result.ok) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return result.invalid;
}

describe('multipleOf', () => {
  it('accepts whole multiples and refuses the rest as out of range', () => {
    const schema = { type: 'integer', multipleOf: 5 };
    expect([0, 5, 10, -15, 1_000_000_000].map((v) => outcome(schema, v))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect([1, 4, 6, 12, -3].map((v) => outcome(schema, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
    expect(invalid(schema, 12).message).toMatch(
      /^Tool 'probe' argument 'v' must be a whole number .*a multiple of 5, but the value was the number 12\.$/,
    );
  });

  it('tolerates binary floating-point noise for a fractional divisor, and nothing more', () => {
    const schema = { type: 'number', multipleOf: 0.1 };
    expect([0.3, 0.7, 1.1, 2.5, -0.3].map((v) => outcome(schema, v))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect([0.35, 0.01, 0.1000001].map((v) => outcome(schema, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
    expect(outcome({ type: 'number', multipleOf: 0.5 }, 1.25)).toBe('out_of_range');
    expect(outcome({ type: 'number', multipleOf: 0.5 }, 1.5)).toBe('ok');
  });

  it('is checked together with the range', () => {
    const schema = { type: 'integer', minimum: 10, maximum: 20, multipleOf: 10 };
    expect([10, 20, 0, 30, 15].map((v) => outcome(schema, v))).toEqual([
      'ok',
      'ok',
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
  });
});

describe('string length', () => {
  it('minLength: one character short is refused, exactly the bound is accepted', () => {
    const schema = { type: 'string', minLength: 3 };
    expect(['', 'ab', 'abc', 'abcd', 'abcdefghij'].map((v) => outcome(schema, v))).toEqual([
      'too_short',
      'too_short',
      'ok',
      'ok',
      'ok',
    ]);
    expect(invalid(schema, 'ab').message).toBe(
      `Tool 'probe' argument 'v' must be a string of at least 3 characters, but the value was the string "ab" ` +
        '(2 characters).',
    );
    expect(invalid(schema, '').message).toContain('(0 characters)');
  });

  it('maxLength: exactly the bound is accepted, one more is refused', () => {
    const schema = { type: 'string', maxLength: 3 };
    expect(['', 'abc', 'abcd'].map((v) => outcome(schema, v))).toEqual(['ok', 'ok', 'too_long']);
    expect(invalid({ type: 'string', maxLength: 0 }, 'a').message).toBe(
      `Tool 'probe' argument 'v' must be a string of at most 0 characters, but the value was the string "a" (1 ` +
        'character).',
    );
  });

  it('both bounds, and a bound equal on both sides', () => {
    const range = { type: 'string', minLength: 2, maxLength: 3 };
    expect(['a', 'ab', 'abc', 'abcd'].map((v) => outcome(range, v))).toEqual(['too_short', 'ok', 'ok', 'too_long']);
    const exact = { type: 'string', minLength: 2, maxLength: 2 };
    expect(['a', 'ab', 'abc'].map((v) => outcome(exact, v))).toEqual(['too_short', 'ok', 'too_long']);
    expect(invalid(exact, 'a').message).toContain('must be a string of exactly 2 characters');
    expect(invalid(range, 'a').message).toContain('must be a string of 2 to 3 characters');
    expect(invalid({ type: 'string', minLength: 1, maxLength: 1 }, '').message).toContain(
      'must be a string of exactly 1 character,',
    );
  });

  it('minLength 0 refuses nothing, and is not described', () => {
    expect(outcome({ type: 'string', minLength: 0 }, '')).toBe('ok');
    expect(invalid({ type: 'string', minLength: 0 }, 1).message).toBe(
      `Tool 'probe' argument 'v' must be a string, but the value was the number 1.`,
    );
  });

  it('counts a surrogate pair once, at both bounds', () => {
    // '😀' is one character in two UTF-16 units.
    expect(['😀', '😀😀', '😀😀😀'].map((v) => outcome({ type: 'string', minLength: 2 }, v))).toEqual([
      'too_short',
      'ok',
      'ok',
    ]);
    expect(['😀', '😀😀', '😀😀😀'].map((v) => outcome({ type: 'string', maxLength: 2 }, v))).toEqual([
      'ok',
      'ok',
      'too_long',
    ]);
    expect(invalid({ type: 'string', minLength: 2 }, '😀').message).toContain('(1 character)');
    expect(invalid({ type: 'string', maxLength: 2 }, '😀😀😀').message).toContain('(3 characters)');
    // Near the bound by units but not by characters: 'a😀' is 3 units and 2 characters.
    expect(outcome({ type: 'string', minLength: 3 }, 'a😀')).toBe('too_short');
    expect(outcome({ type: 'string', minLength: 3 }, 'a😀b')).toBe('ok');
    expect(outcome({ type: 'string', minLength: 2, maxLength: 2 }, '😀😀')).toBe('ok');
  });

  it('counts the first and last surrogate pairs once, and anything else that looks like one unit by unit', () => {
    const one = { type: 'string', maxLength: 1 };
    // U+10000 and U+10FFFF: the lowest and highest pairs.
    expect(['\ud800\udc00', '\udbff\udfff', '\ud800\udfff', '\udbff\udc00'].map((v) => outcome(one, v))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    // A low surrogate first, a lone high one, a high one before a non-surrogate: two units, two characters.
    expect(
      ['\udc00\ud800', '\ud7ff\udc00', '\ud800\ue000', '\ud800a', '\udc00\udc00', '\ud800\ud800', 'ab'].map((v) =>
        outcome(one, v),
      ),
    ).toEqual(['too_long', 'too_long', 'too_long', 'too_long', 'too_long', 'too_long', 'too_long']);
    // A lone high surrogate at the end counts as one character.
    expect(outcome(one, '\ud800')).toBe('ok');
    expect(invalid({ type: 'string', maxLength: 1 }, 'a\ud800').message).toContain('(2 characters)');
    expect(invalid({ type: 'string', minLength: 3 }, '\ud800\udc00\ud800').message).toContain('(2 characters)');
  });
});

describe('numbers', () => {
  it('inclusive bounds include the bound, exclusive ones do not', () => {
    expect([0, 1, 10, 11].map((v) => outcome({ type: 'integer', minimum: 1, maximum: 10 }, v))).toEqual([
      'out_of_range',
      'ok',
      'ok',
      'out_of_range',
    ]);
    expect(
      [0, 0.5, 9.5, 10].map((v) => outcome({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 }, v)),
    ).toEqual(['out_of_range', 'ok', 'ok', 'out_of_range']);
    expect([-1.5, -1, 2.5].map((v) => outcome({ type: 'number', minimum: -1, maximum: 2.5 }, v))).toEqual([
      'out_of_range',
      'ok',
      'ok',
    ]);
  });

  it('an integer schema without bounds takes the whole safe range and nothing beyond', () => {
    const integer = { type: 'integer' };
    expect([-(2 ** 53) + 1, 2 ** 53 - 1, 0].map((v) => outcome(integer, v))).toEqual(['ok', 'ok', 'ok']);
    expect([-(2 ** 53), 2 ** 53, 1.5].map((v) => outcome(integer, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'invalid_type',
    ]);
    // A declared bound beyond the safe range is narrowed to it.
    expect(outcome({ type: 'integer', maximum: 2 ** 60 }, 2 ** 53)).toBe('out_of_range');
    expect(outcome({ type: 'integer', minimum: -(2 ** 60) }, -(2 ** 53))).toBe('out_of_range');
  });

  it('a number schema takes every finite number', () => {
    const number = { type: 'number' };
    expect([Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324, -0].map((v) => outcome(number, v))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    expect([Infinity, -Infinity, Number.NaN].map((v) => outcome(number, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
    expect(outcome({ type: 'number', minimum: -0 }, 0)).toBe('ok');
  });

  it('tells the model to send a number, not a string, only when the string holds one', () => {
    expect(invalid({ type: 'integer' }, '12').message).toContain(
      'the string "12"; send the number itself, not a string.',
    );
    expect(invalid({ type: 'number' }, ' 1.5 ').message).toContain('; send the number itself');
    for (const text of ['', '   ', 'twelve', 'Infinity', '1e999']) {
      expect(invalid({ type: 'number' }, text).message).not.toContain('send the number itself');
    }
    expect(invalid({ type: 'number' }, true).message).toBe(
      `Tool 'probe' argument 'v' must be a number, but the value was the boolean true.`,
    );
  });

  it('refuses a boolean or null where a number belongs as the wrong type', () => {
    expect(outcome({ type: 'number' }, false)).toBe('invalid_type');
    expect(outcome({ type: 'integer' }, null)).toBe('ok'); // an optional argument sent as null is absent
    expect(toolWith({ type: 'integer' }, true).bind({ v: null })).toMatchObject({
      ok: false,
      invalid: { code: 'required' },
    });
  });
});

describe('arrays', () => {
  it('minItems and maxItems include their bound', () => {
    const schema = { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 };
    expect([[], [1], [1, 2], [1, 2, 3]].map((v) => outcome(schema, v))).toEqual(['too_short', 'ok', 'ok', 'too_long']);
    expect(invalid(schema, []).message).toContain('it had 0 items.');
    expect(invalid({ type: 'array', items: { type: 'integer' }, maxItems: 0 }, [1]).message).toBe(
      `Tool 'probe' argument 'v' must be an array of whole numbers of at most 0 items, but it had 1 item.`,
    );
  });

  it('binds each item, nested arrays and objects included, and reports the path of a bad one', () => {
    const schema = {
      type: 'array',
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', default: 7 } } } },
    };
    const tool = toolWith(schema);
    expect(tool.bind({ v: [[{}, { n: 1 }], []] })).toEqual({ ok: true, args: { v: [[{ n: 7 }, { n: 1 }], []] } });
    expect(tool.bind({ v: [[{ n: 1 }], [{}, { n: 'x' }]] })).toMatchObject({
      ok: false,
      invalid: { path: ['v', 1, 1, 'n'], code: 'invalid_type', argument: 'v' },
    });
    expect(tool.bind({ v: [[{ m: 1 }]] })).toMatchObject({
      ok: false,
      invalid: { path: ['v', 0, 0, 'm'], code: 'unknown_argument' },
    });
    expect(outcome(schema, {})).toBe('invalid_type');
  });

  it('describes the items it wants', () => {
    const described = (items: Record<string, unknown>) => invalid({ type: 'array', items }, 'x').message;
    expect(described({ type: 'integer' })).toContain('must be an array of whole numbers,');
    expect(described({ type: 'number' })).toContain('must be an array of numbers,');
    expect(described({ type: 'boolean' })).toContain('must be an array of booleans,');
    expect(described({ type: 'string' })).toContain('must be an array of strings,');
    expect(described({ type: 'array', items: { type: 'string' } })).toContain('must be an array of arrays,');
    expect(described({ type: 'object', properties: {} })).toContain('must be an array of objects,');
    expect(described({ enum: ['a'] })).toContain('must be an array of values,');
    expect(described({ const: 1 })).toContain('must be an array of values,');
    expect(described({ type: ['string', 'null'] })).toContain('must be an array of strings,');
  });
});

describe('null, enums and constants', () => {
  it('a nullable type keeps null as a value, and checks anything else against the type', () => {
    const schema = { type: ['integer', 'null'], minimum: 1 };
    expect(toolWith(schema, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(outcome(schema, 0)).toBe('out_of_range');
    expect(invalid(schema, 'x').message).toBe(
      `Tool 'probe' argument 'v' must be a whole number of at least 1, or null, but the value was the string "x".`,
    );
  });

  it('an enum or const that holds null keeps null as a value', () => {
    expect(toolWith({ enum: ['a', null] }, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(toolWith({ const: null }, true).bind({ v: null })).toEqual({ ok: true, args: { v: null } });
    expect(toolWith({ enum: ['a', 'b'] }, true).bind({ v: null })).toMatchObject({
      ok: false,
      invalid: { code: 'required' },
    });
  });

  it('a const allows exactly its value; an enum exactly its members', () => {
    expect([3, '3', 4].map((v) => outcome({ const: 3 }, v))).toEqual(['ok', 'not_a_known_value', 'not_a_known_value']);
    expect(invalid({ const: 3 }, 4).message).toBe(
      `Tool 'probe' argument 'v' must be exactly 3, but the value was the number 4.`,
    );
    expect([1, 2, 3].map((v) => outcome({ type: 'integer', enum: [1, 2] }, v))).toEqual([
      'ok',
      'ok',
      'not_a_known_value',
    ]);
    expect(outcome({ type: 'integer', enum: [1, 2] }, 'x')).toBe('invalid_type');
  });
});

describe('booleans and objects', () => {
  it('a boolean is exactly true or false', () => {
    expect([true, false, 0, 'true'].map((v) => outcome({ type: 'boolean' }, v))).toEqual([
      'ok',
      'ok',
      'invalid_type',
      'invalid_type',
    ]);
    expect(invalid({ type: 'boolean' }, 1).message).toBe(
      `Tool 'probe' argument 'v' must be true or false, but the value was the number 1.`,
    );
  });

  it('an object member is an object: not null, not an array', () => {
    const schema = { type: 'object', properties: {} };
    expect([{}, null, [], 'x'].map((v) => outcome(schema, v))).toEqual(['ok', 'ok', 'invalid_type', 'invalid_type']);
    expect(invalid(schema, []).message).toBe(
      `Tool 'probe' argument 'v' must be an object, but the value was the array [].`,
    );
    expect(toolWith(schema).bind({ v: { x: 1 } })).toMatchObject({
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

describe('defaults', () => {
  it('gives each call its own copy of an object default', () => {
    const tool = toolWith({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } } },
      default: { tags: ['a'] },
    });
    const first = tool.bind({});
    const second = tool.bind({});
    expect(first).toEqual({ ok: true, args: { v: { tags: ['a'] } } });
    (first as { args: { v: { tags: string[] } } }).args.v.tags.push('changed');
    expect(second).toEqual({ ok: true, args: { v: { tags: ['a'] } } });
    expect(tool.bind({})).toEqual({ ok: true, args: { v: { tags: ['a'] } } });
  });

  it('applies a default of null, zero or the empty string', () => {
    expect(toolWith({ type: ['string', 'null'], default: null }).bind({})).toEqual({ ok: true, args: { v: null } });
    expect(toolWith({ type: 'integer', default: 0 }).bind({})).toEqual({ ok: true, args: { v: 0 } });
    expect(toolWith({ type: 'string', default: '' }).bind({ v: null })).toEqual({ ok: true, args: { v: '' } });
  });

  it('refuses, when the tool is defined, a default its own schema refuses', () => {
    const error = (() => {
      try {
        toolWith({ type: 'integer', minimum: 1, default: 0 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolDeclarationError);
    expect(error).toMatchObject({ code: 'invalid_default', tool: 'probe' });
    expect(() => toolWith({ type: 'object', properties: { n: { type: 'integer', default: 'x' } } })).toThrow(
      ToolDeclarationError,
    );
    expect(() => toolWith({ type: 'integer', minimum: 1, default: 1 })).not.toThrow();
  });
});

describe('zod refinements', () => {
  it('runs after the structural check, on the bound value, and a throw of any kind becomes failed_rule', () => {
    const tool = defineTool({
      name: 'refined',
      description: 'R.',
      input: z.object({ n: z.number().refine((n) => n !== 13, 'thirteen is unlucky') }),
      run: noop,
    });
    expect(tool.bind({ n: 12 })).toEqual({ ok: true, args: { n: 12 } });
    expect(tool.bind({ n: 13 })).toMatchObject({ ok: false, invalid: { code: 'failed_rule', path: ['n'] } });
    expect(tool.bind({ n: 'x' })).toMatchObject({ ok: false, invalid: { code: 'invalid_type' } });
    const throwing = (thrown: unknown) =>
      defineTool({
        name: 'thrower',
        description: 'T.',
        input: z.object({
          n: z.number().refine(() => {
            throw thrown;
          }),
        }),
        run: noop,
      }).bind({ n: 1 });
    expect(throwing(new SyntaxError('x'))).toMatchObject({
      ok: false,
      invalid: { code: 'failed_rule', path: [], argument: null },
    });
    expect((throwing(new SyntaxError('x')) as { invalid: InvalidArgument }).invalid.message).toContain(
      'its check failed with SyntaxError',
    );
    expect((throwing('text') as { invalid: InvalidArgument }).invalid.message).toContain(
      'its check failed with string',
    );
  });
});

describe('more of what the compiled checks do', () => {
  it('matches a pattern by code points (the u flag): a dot is one whole character', () => {
    expect(['😀', 'a', 'ab'].map((v) => outcome({ type: 'string', pattern: '^.$' }, v))).toEqual([
      'ok',
      'ok',
      'invalid_format',
    ]);
    expect(['é', 'e', '1'].map((v) => outcome({ type: 'string', pattern: '^\\p{L}$' }, v))).toEqual([
      'ok',
      'ok',
      'invalid_format',
    ]);
  });

  it('names where a default inside array items sits when it refuses it', () => {
    const declare = () =>
      toolWith({ type: 'array', items: { type: 'object', properties: { n: { type: 'integer', default: 'x' } } } });
    expect(declare).toThrow(ToolDeclarationError);
    expect(() => declare()).toThrow(
      expect.objectContaining({ code: 'invalid_default', path: 'input.properties.v.items.properties.n.default' }),
    );
  });

  it('calls items of an array that are enums or constants values, whatever their type', () => {
    expect(describeExpectation({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } } as PublishedSchema)).toBe(
      'an array of values',
    );
    expect(describeExpectation({ type: 'array', items: { type: 'integer', const: 1 } } as PublishedSchema)).toBe(
      'an array of values',
    );
  });

  it('tells the model a refinement that threw failed, and that the tool did not run', () => {
    const tool = defineTool({
      name: 'thrower',
      description: 'T.',
      input: z.object({
        n: z.number().refine(() => {
          throw new TypeError('boom');
        }),
      }),
      run: noop,
    });
    expect(tool.bind({ n: 1 })).toEqual({
      ok: false,
      invalid: {
        error: 'invalid_argument',
        tool: 'thrower',
        argument: null,
        path: [],
        code: 'failed_rule',
        message: "Tool 'thrower' input was refused: its check failed with TypeError; the tool did not run.",
      },
    });
  });
});
