// What the binder tells the model: the expectation phrase for each kind of schema, and how a
// refusal names where it points.
import { describe, expect, it } from 'vitest';
import { describeExpectation } from '../../src/tools/binder/expectation.js';
import { describePath, Refusal, toInvalidArgument } from '../../src/tools/binder/invalidArgument.js';
import type { PublishedSchema } from '../../src/tools/schema/publishedSchema.js';
import { probeRefusal } from '../support/probeTool.js';

describe('what the model is told a value must be', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ const: 'a' }, 'exactly "a"'],
    // JSON Schema: the const decides, and it does not take null (the type allowing null changes nothing).
    [{ type: ['string', 'null'], const: 'a' }, 'exactly "a"'],
    [{ type: ['string', 'null'], enum: ['a', null] }, 'one of "a", null'],
    [{ enum: ['a', 2, null] }, 'one of "a", 2, null'],
    [{ type: 'string' }, 'a string'],
    [{ type: 'string', minLength: 0 }, 'a string'],
    [{ type: 'string', minLength: 1 }, 'a string of at least 1 character'],
    [{ type: 'string', minLength: 2 }, 'a string of at least 2 characters'],
    [{ type: 'string', maxLength: 1 }, 'a string of at most 1 character'],
    [{ type: 'string', minLength: 0, maxLength: 4 }, 'a string of 0 to 4 characters'],
    [{ type: 'string', minLength: 3, maxLength: 3 }, 'a string of exactly 3 characters'],
    [{ type: 'string', pattern: '^a+$' }, 'a string matching the pattern ^a+$'],
    [{ type: 'string', format: 'email' }, 'a string in email format'],
    [
      { type: 'string', maxLength: 9, pattern: '^a', format: 'email' },
      'a string of at most 9 characters and matching the pattern ^a and in email format',
    ],
    [{ type: ['string', 'null'], maxLength: 2 }, 'a string of at most 2 characters, or null'],
    [{ type: 'integer' }, 'a whole number'],
    [{ type: 'integer', minimum: 1, maximum: 10 }, 'a whole number between 1 and 10'],
    [{ type: 'integer', minimum: 1 }, 'a whole number of at least 1'],
    [{ type: 'integer', maximum: 3 }, 'a whole number of at most 3'],
    [{ type: 'number', exclusiveMinimum: 0 }, 'a number greater than 0'],
    [{ type: 'number', exclusiveMaximum: 1 }, 'a number less than 1'],
    [{ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, 'a number greater than 0 and less than 1'],
    [{ type: 'number', maximum: 1e300 }, 'a number of at most 1e+300'],
    [{ type: 'integer', minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 }, 'a whole number'],
    [{ type: 'integer', minimum: -(2 ** 53 - 2) }, `a whole number of at least ${-(2 ** 53 - 2)}`],
    [{ type: 'integer', minimum: 0, maximum: 2 ** 53 - 1 }, 'a whole number of at least 0'],
    [{ type: 'integer', exclusiveMaximum: 2 ** 53 }, 'a whole number'],
    [{ type: 'boolean' }, 'true or false'],
    [{ type: 'array', items: { type: 'integer' }, minItems: 1 }, 'an array of whole numbers of at least 1 item'],
    [
      { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
      'an array of whole numbers of exactly 2 items',
    ],
    [{ type: 'array', items: { type: 'null' } }, 'an array of values'],
    [{ type: 'object', properties: {} }, 'an object'],
    [{}, 'any value'],
  ])('%j: %s', (schema, expected) => {
    expect(describeExpectation(schema as PublishedSchema)).toBe(expected);
  });

  // Mixed bounds and multiples: the parts are checked, not the joining words around them.
  it.each<[Record<string, unknown>, string[]]>([
    [{ type: 'number', minimum: 0, exclusiveMaximum: 5 }, ['at least 0', 'less than 5']],
    [{ type: 'number', exclusiveMinimum: 0, maximum: 5 }, ['greater than 0', 'at most 5']],
    [{ type: 'number', minimum: 0, exclusiveMinimum: 1, maximum: 5 }, ['greater than 1', 'at most 5']],
    [{ type: 'number', minimum: 0, maximum: 5, exclusiveMaximum: 4 }, ['at least 0', 'less than 4']],
    [{ type: 'integer', multipleOf: 5 }, ['a whole number', 'a multiple of 5']],
    [
      { type: 'number', minimum: 0, maximum: 1, multipleOf: 0.25 },
      ['a number', 'between 0 and 1', 'a multiple of 0.25'],
    ],
  ])('%j: names %j', (schema, parts) => {
    const expected = describeExpectation(schema as PublishedSchema);
    for (const part of parts) expect(expected).toContain(part);
  });

  it('describes the items it wants', () => {
    const described = (items: Record<string, unknown>) => probeRefusal({ type: 'array', items }, 'x').message;
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

  it('calls items of an array that are enums or constants values, whatever their type', () => {
    expect(describeExpectation({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } } as PublishedSchema)).toBe(
      'an array of values',
    );
    expect(describeExpectation({ type: 'array', items: { type: 'integer', const: 1 } } as PublishedSchema)).toBe(
      'an array of values',
    );
  });
});

describe('where a refusal points', () => {
  it('names the path in words, and the top-level argument in the record', () => {
    expect(describePath([])).toBe('input');
    expect(describePath(['a'])).toBe("argument 'a'");
    expect(describePath(['a', 'b', 2, 'c'])).toBe("argument 'a' member 'b' item 2 member 'c'");
    const refusal = new Refusal('too_long', 'x', 'y').withPath(['a', 1]);
    expect(refusal.at('outer').path).toEqual(['outer', 'a', 1]);
    expect(toInvalidArgument('t', new Refusal('invalid_type', 'a string', 'it was 1').withPath([0]))).toEqual({
      error: 'invalid_argument',
      tool: 't',
      argument: null,
      path: [0],
      code: 'invalid_type',
      message: "Tool 't' item 0 must be a string, but it was 1.",
    });
    const unknown = toInvalidArgument(
      't',
      new Refusal('unknown_argument', 'its members are "x"', '').withPath(['a', 'b', 'z']),
    );
    expect(unknown.message).toBe(`Tool 't' argument 'a' member 'b' has no member 'z'; its members are "x".`);
    expect(
      toInvalidArgument('t', new Refusal('failed_rule', 'too big', 'the value was 3', true).withPath(['n'])).message,
    ).toBe("Tool 't' argument 'n' was refused: too big; the value was 3.");
    expect(toInvalidArgument('t', new Refusal('required', 'a string', 'it was missing').withPath(['n'])).message).toBe(
      "Tool 't' argument 'n' is required and must be a string, but it was missing.",
    );
    // Withpath replaces the whole path; the record is a copy the refusal does not share.
    const shared = new Refusal('too_long', 'x', 'y').withPath(['a', 'b']).withPath(['c']);
    const record = toInvalidArgument('t', shared);
    expect(record.path).toEqual(['c']);
    record.path.push('d');
    expect(shared.path).toEqual(['c']);
  });
});
