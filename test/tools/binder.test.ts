import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, type InvalidArgument } from '../../src/index.js';

const noop = () => 'ok';

/** A tool exercising every construct the binder supports, defined where a test asks for it. */
const shipping = () =>
  defineTool({
    name: 'ship_parcel',
    description: 'Ships a parcel.',
    input: {
      type: 'object',
      properties: {
        weight: { type: 'integer', minimum: 1, maximum: 30 },
        price: { type: 'number', exclusiveMinimum: 0 },
        unit: { type: 'string', enum: ['kg', 'lb'] },
        express: { type: 'boolean', default: false },
        address: {
          type: 'object',
          properties: { street: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
          required: ['street', 'zip'],
        },
        parts: { type: 'array', items: { type: 'string', maxLength: 4 }, minItems: 1, maxItems: 3 },
        note: { type: 'string' },
      },
      required: ['weight', 'unit', 'address'],
    },
    run: noop,
  });

const valid = { weight: 2, unit: 'kg', address: { street: 'Main St', zip: '12345' } };

function refusal(input: unknown): InvalidArgument {
  const result = shipping().bind(input);
  if (result.ok) throw new Error(`expected a refusal for ${JSON.stringify(input)}`);
  return result.invalid;
}

describe('the binder', () => {
  it('binds valid input, applying defaults', () => {
    expect(shipping().bind(valid)).toEqual({ ok: true, args: { ...valid, express: false } });
  });

  it('reports the wrong type with the argument, what was expected and what arrived', () => {
    const add = defineTool({
      name: 'add',
      description: 'Adds.',
      input: {
        type: 'object',
        properties: { left: { type: 'integer' }, right: { type: 'integer' } },
        required: ['left', 'right'],
      },
      run: noop,
    });
    const result = add.bind({ left: 'one', right: 2 });
    expect(result).toEqual({
      ok: false,
      invalid: {
        error: 'invalid_argument',
        tool: 'add',
        argument: 'left',
        path: ['left'],
        code: 'invalid_type',
        message: `Tool 'add' argument 'left' must be a whole number, but the value was the string "one".`,
      },
    });
  });

  it.each([
    [
      'a missing required argument',
      { unit: 'kg', address: valid.address },
      'required',
      ['weight'],
      `Tool 'ship_parcel' argument 'weight' is required and must be a whole number between 1 and 30, but it ` +
        'was missing.',
    ],
    [
      'an explicit null for a required argument',
      { ...valid, weight: null },
      'required',
      ['weight'],
      `Tool 'ship_parcel' argument 'weight' is required and must be a whole number between 1 and 30, but it ` +
        'was null, which counts as missing.',
    ],
    [
      'a number above the maximum',
      { ...valid, weight: 31 },
      'out_of_range',
      ['weight'],
      `Tool 'ship_parcel' argument 'weight' must be a whole number between 1 and 30, but the value was the number 31.`,
    ],
    [
      'a fraction for an integer',
      { ...valid, weight: 2.5 },
      'invalid_type',
      ['weight'],
      `Tool 'ship_parcel' argument 'weight' must be a whole number between 1 and 30, but the value was the number 2.5.`,
    ],
    [
      'a number on an exclusive bound',
      { ...valid, price: 0 },
      'out_of_range',
      ['price'],
      `Tool 'ship_parcel' argument 'price' must be a number greater than 0, but the value was the number 0.`,
    ],
    [
      'a number sent as a string',
      { ...valid, price: '3.5' },
      'invalid_type',
      ['price'],
      `Tool 'ship_parcel' argument 'price' must be a number greater than 0, but the value was the string ` +
        '"3.5"; send the number itself, not a string.',
    ],
    [
      'a value outside an enum, listing the whole set',
      { ...valid, unit: 'stone' },
      'not_a_known_value',
      ['unit'],
      `Tool 'ship_parcel' argument 'unit' must be one of "kg", "lb", but the value was the string "stone".`,
    ],
    [
      'a nested member of the wrong type',
      { ...valid, address: { street: 'Main', zip: 12345 } },
      'invalid_type',
      ['address', 'zip'],
      `Tool 'ship_parcel' argument 'address' member 'zip' must be a string matching the pattern ^[0-9]{5}$, ` +
        'but the value was the number 12345.',
    ],
    [
      'a string that misses its pattern',
      { ...valid, address: { street: 'Main', zip: '1234' } },
      'invalid_format',
      ['address', 'zip'],
      `Tool 'ship_parcel' argument 'address' member 'zip' must be a string matching the pattern ^[0-9]{5}$, ` +
        'but the value was the string "1234".',
    ],
    [
      'a string that is too short',
      { ...valid, address: { street: '', zip: '12345' } },
      'too_short',
      ['address', 'street'],
      `Tool 'ship_parcel' argument 'address' member 'street' must be a string of at least 1 character, but the ` +
        'value was the string "" (0 characters).',
    ],
    [
      'an array item of the wrong type',
      { ...valid, parts: ['a', 'b', 3] },
      'invalid_type',
      ['parts', 2],
      `Tool 'ship_parcel' argument 'parts' item 2 must be a string of at most 4 characters, but the value was ` +
        'the number 3.',
    ],
    [
      'an array item that is too long',
      { ...valid, parts: ['abcde'] },
      'too_long',
      ['parts', 0],
      `Tool 'ship_parcel' argument 'parts' item 0 must be a string of at most 4 characters, but the value was ` +
        'the string "abcde" (5 characters).',
    ],
    [
      'an array with too many items',
      { ...valid, parts: ['a', 'b', 'c', 'd'] },
      'too_long',
      ['parts'],
      `Tool 'ship_parcel' argument 'parts' must be an array of strings of 1 to 3 items, but it had 4 items.`,
    ],
    [
      'an empty array below minItems',
      { ...valid, parts: [] },
      'too_short',
      ['parts'],
      `Tool 'ship_parcel' argument 'parts' must be an array of strings of 1 to 3 items, but it had 0 items.`,
    ],
    [
      'a string where an array belongs',
      { ...valid, parts: 'a,b' },
      'invalid_type',
      ['parts'],
      `Tool 'ship_parcel' argument 'parts' must be an array of strings of 1 to 3 items, but the value was the ` +
        'string "a,b".',
    ],
    [
      'an argument the tool does not declare',
      { ...valid, colour: 'red' },
      'unknown_argument',
      ['colour'],
      `Tool 'ship_parcel' has no argument 'colour'; its arguments are 'weight', 'price', 'unit', 'express', ` +
        `'address', 'parts', 'note'.`,
    ],
    [
      'a member the object does not declare',
      { ...valid, address: { ...valid.address, country: 'FR' } },
      'unknown_argument',
      ['address', 'country'],
      `Tool 'ship_parcel' argument 'address' has no member 'country'; its members are 'street', 'zip'.`,
    ],
    [
      'a top level that is not an object',
      [1, 2],
      'invalid_type',
      [],
      `Tool 'ship_parcel' input must be an object of named arguments, but the value was the array [1,2].`,
    ],
    [
      'text that is not JSON',
      '{"weight": 2',
      'not_parsable',
      [],
      `Tool 'ship_parcel' input must be a JSON object of named arguments, but the value was the string ` +
        `"{\\"weight\\": 2", which is not JSON.`,
    ],
  ])('refuses %s', (_case, input, code, path, message) => {
    const invalid = refusal(input);
    expect(invalid.code).toBe(code);
    expect(invalid.path).toEqual(path);
    expect(invalid.argument).toBe(typeof path[0] === 'string' ? path[0] : null);
    expect(invalid.message).toBe(message);
  });

  it('reports the first failure in declaration order, not in the order the model sent', () => {
    const invalid = refusal({ address: { zip: 1 }, unit: 'stone', weight: 'heavy' });
    expect(invalid.path).toEqual(['weight']);
  });

  it('reports unknown arguments only after every declared one is valid', () => {
    expect(refusal({ colour: 'red', ...valid, weight: 0 }).path).toEqual(['weight']);
  });

  it('treats an explicit null for an optional argument as absent, so its default applies', () => {
    expect(shipping().bind({ ...valid, express: null, note: null })).toEqual({
      ok: true,
      args: { ...valid, express: false },
    });
  });

  it('keeps null where the schema allows it as a value', () => {
    const tool = defineTool({
      name: 'tag',
      description: 'Tags.',
      input: { type: 'object', properties: { label: { type: ['string', 'null'] } }, required: ['label'] },
      run: noop,
    });
    expect(tool.bind({ label: null })).toEqual({ ok: true, args: { label: null } });
    expect(tool.bind({})).toMatchObject({ ok: false, invalid: { code: 'required' } });
  });

  it('refuses infinities, NaN and integers beyond the safe range instead of saturating them', () => {
    const tool = defineTool({
      name: 'count',
      description: 'Counts.',
      input: { type: 'object', properties: { n: { type: 'integer' }, x: { type: 'number' } } },
      run: noop,
    });
    expect(tool.bind(JSON.parse('{"x": 1e400}'))).toMatchObject({
      ok: false,
      invalid: { code: 'out_of_range', path: ['x'] },
    });
    expect(tool.bind({ x: Number.NaN })).toMatchObject({ ok: false, invalid: { code: 'out_of_range' } });
    expect(tool.bind({ n: 2 ** 53 })).toMatchObject({ ok: false, invalid: { code: 'out_of_range', path: ['n'] } });
    expect(tool.bind({ n: 2 ** 53 - 1 })).toEqual({ ok: true, args: { n: 2 ** 53 - 1 } });
  });

  it('quotes what arrived JSON-escaped and cut to 40 characters', () => {
    const long = `"quoted"\n${'x'.repeat(100)}`;
    const message = refusal({ ...valid, unit: long }).message;
    expect(message).toBe(
      `Tool 'ship_parcel' argument 'unit' must be one of "kg", "lb", but the value was the string ` +
        `"\\"quoted\\"\\n${'x'.repeat(27)}….`,
    );
  });

  it('checks the formats JSON Schema defines', () => {
    const tool = defineTool({
      name: 'meet',
      description: 'Books a meeting.',
      input: {
        type: 'object',
        properties: {
          at: { type: 'string', format: 'date-time' },
          who: { type: 'string', format: 'email' },
          id: { type: 'string', format: 'uuid' },
        },
      },
      run: noop,
    });
    expect(
      tool.bind({ at: '2026-11-29T18:00:00Z', who: 'ada@example.com', id: '123e4567-e89b-12d3-a456-426614174000' }).ok,
    ).toBe(true);
    expect(tool.bind({ at: '2026-02-30T18:00:00Z' })).toMatchObject({
      ok: false,
      invalid: { code: 'invalid_format', path: ['at'] },
    });
    expect(tool.bind({ who: 'not an email' })).toMatchObject({
      ok: false,
      invalid: {
        message:
          `Tool 'meet' argument 'who' must be a string in email format, but the value was the string "not an ` +
          'email".',
      },
    });
  });

  it('binds argument names that are awkward in code: quotes, backslashes, line breaks, prototype keys', () => {
    // One level down: the Messages API refuses most of these names at the top of a tool's input (docs/tools.md,
    // 'Property names'), and accepts them below it, where the binder checks them the same way.
    const names = ['a"b', 'c\\d', 'e\nf', 'g\u2028h', "x'); throw 1; ('", 'constructor', 'toString', '0'];
    const properties = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
    const tool = defineTool({
      name: 'awkward',
      description: 'A.',
      input: { type: 'object', properties: { o: { type: 'object', properties, required: names } }, required: ['o'] },
      run: noop,
    });
    const input = Object.fromEntries(names.map((name, i) => [name, `v${i}`]));
    expect(tool.bind({ o: input })).toEqual({ ok: true, args: { o: input } });
    // Inherited members never count as sent arguments.
    expect(tool.bind({ o: { ...input, constructor: undefined } })).toMatchObject({
      ok: false,
      invalid: { code: 'required', path: ['o', 'constructor'] },
    });
    // Declaration order is the order the model sees the schema in, where integer-like keys come first.
    expect(tool.bind({ o: {} })).toMatchObject({ ok: false, invalid: { path: ['o', '0'] } });
    const shown = (tool.inputSchema.properties as { o: { properties: object } }).o.properties;
    expect(Object.keys(shown)[0]).toBe('0');
  });

  it('refuses an own __proto__ key as an unknown argument, without touching any prototype', () => {
    const result = shipping().bind(
      JSON.parse(
        '{"weight": 2, "unit": "kg", "address": {"street": "a", "zip": "12345"}, "__proto__": {"polluted": true}}',
      ),
    );
    expect(result).toMatchObject({ ok: false, invalid: { code: 'unknown_argument', path: ['__proto__'] } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts strings that contain lone surrogates or zero-width characters when the schema does', () => {
    expect(shipping().bind({ ...valid, note: 'a\uD800b\u200B\u202E' }).ok).toBe(true);
  });
});

describe('the binder with a zod schema', () => {
  const booking = () =>
    defineTool({
      name: 'book_room',
      description: 'Books a room.',
      input: z
        .object({
          room: z.string().min(1),
          nights: z.int().min(1).max(14),
          guests: z.array(z.string()).default([]),
          code: z
            .string()
            .refine((code) => code.startsWith('PROMO'), 'a promotion code starts with PROMO')
            .optional(),
          checkIn: z.string().transform((day) => new Date(`${day}T00:00:00Z`)),
        })
        .refine((b) => b.room !== 'penthouse' || b.nights <= 3, {
          message: 'the penthouse is booked for at most 3 nights',
          path: ['nights'],
        }),
      run: (args) => `${args.room} from ${args.checkIn.toISOString()}`,
    });

  it('shows the model the zod schema as JSON Schema, with no additional properties', () => {
    expect(booking().inputSchema).toMatchObject({
      type: 'object',
      properties: { nights: { type: 'integer', minimum: 1, maximum: 14 }, guests: { type: 'array', default: [] } },
      required: ['room', 'nights', 'checkIn'],
      additionalProperties: false,
    });
    expect(booking().inputSchema).not.toHaveProperty('$schema');
  });

  it('checks structure first, with the same messages as a JSON Schema tool', () => {
    expect(booking().bind({ room: 'A1', nights: 'two', checkIn: '2026-12-01' })).toMatchObject({
      ok: false,
      invalid: {
        code: 'invalid_type',
        message:
          `Tool 'book_room' argument 'nights' must be a whole number between 1 and 14, but the value was the ` +
          'string "two".',
      },
    });
  });

  it('runs refinements after the structural check and reports them in the same shape', () => {
    expect(booking().bind({ room: 'A1', nights: 2, code: 'SUMMER', checkIn: '2026-12-01' })).toEqual({
      ok: false,
      invalid: {
        error: 'invalid_argument',
        tool: 'book_room',
        argument: 'code',
        path: ['code'],
        code: 'failed_rule',
        message:
          `Tool 'book_room' argument 'code' was refused: a promotion code starts with PROMO; the value was the ` +
          'string "SUMMER".',
      },
    });
    expect(booking().bind({ room: 'penthouse', nights: 5, checkIn: '2026-12-01' })).toMatchObject({
      ok: false,
      invalid: { path: ['nights'], code: 'failed_rule' },
    });
  });

  it('hands run the transformed values', () => {
    const result = booking().bind({ room: 'A1', nights: 2, checkIn: '2026-12-01' });
    expect(result).toEqual({
      ok: true,
      args: { room: 'A1', nights: 2, guests: [], checkIn: new Date('2026-12-01T00:00:00Z') },
    });
  });

  it('turns a refinement that throws into a refusal, not an exception, telling the model the tool did not run', () => {
    const fragile = defineTool({
      name: 'fragile',
      description: 'F.',
      input: z.object({
        s: z.string().refine(() => {
          throw new RangeError('boom');
        }),
      }),
      run: noop,
    });
    expect(fragile.bind({ s: 'x' })).toEqual({
      ok: false,
      invalid: {
        error: 'invalid_argument',
        tool: 'fragile',
        argument: null,
        path: [],
        code: 'failed_rule',
        message: "Tool 'fragile' input was refused: its check failed with RangeError; the tool did not run.",
      },
    });
  });

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
