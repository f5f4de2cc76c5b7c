// The words of what a value must be, for the schemas the keyword tables of binderMessages.test.ts leave out:
// alternatives named by their members, tuples, typeless nodes, null, and recursion through $ref.
import { describe, expect, it } from 'vitest';
import { describeAlternative, describeExpectation } from '../../src/tools/binder/expectation.js';
import type { PublishedSchema } from '../../src/tools/schema/publishedSchema.js';
import { probeRefusal } from '../support/probeTool.js';

const object = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
});

describe('an alternative of a union', () => {
  it('names an object by up to four of its members', () => {
    const root = {} as PublishedSchema;
    expect(describeAlternative(object('a'), root)).toBe("an object with 'a'");
    expect(describeAlternative(object('a', 'b', 'c', 'd'), root)).toBe("an object with 'a', 'b', 'c', 'd'");
    expect(describeAlternative(object('a', 'b', 'c', 'd', 'e'), root)).toBe("an object with 'a', 'b', 'c', 'd', ...");
    expect(describeAlternative(object(), root)).toBe('an object');
    expect(describeAlternative({ type: 'object' }, root)).toBe('an object');
    expect(describeAlternative({ ...object('a'), minProperties: 1 }, root)).toBe('an object of at least 1 member');
    expect(describeAlternative({ type: 'string' }, root)).toBe('a string');
    expect(describeAlternative(true, root)).toBe('any value');
  });

  it('follows a $ref to the object it names', () => {
    const root = { $defs: { Point: object('x', 'y') } } as unknown as PublishedSchema;
    expect(describeAlternative({ $ref: '#/$defs/Point' }, root)).toBe("an object with 'x', 'y'");
  });

  it('is named so when a value matches two of a oneOf', () => {
    const schema = { oneOf: [object('a'), { type: 'object', properties: { b: { type: 'string' } } }] };
    expect(probeRefusal(schema, {}).message).toBe(
      "Tool 'probe' argument 'v' must match exactly one of its alternatives (an object with 'a', or an object with " +
        "'b'), but the value was the object {}, which is an object with 'a' and an object with 'b'.",
    );
  });
});

describe('what a value must be', () => {
  it.each<[unknown, string]>([
    [{ type: 'null' }, 'null'],
    [{ type: ['null'] }, 'null'],
    [{ type: ['string', 'integer'] }, 'a string or a whole number'],
    [{ type: ['integer', 'null'], minimum: 1 }, 'a whole number of at least 1, or null'],
    [{ type: 'array', prefixItems: [{ type: 'string' }] }, 'an array of a string, then any values'],
    [{ type: 'array', prefixItems: [{ type: 'string' }], items: true }, 'an array of a string, then any values'],
    [{ type: 'array', prefixItems: [{ type: 'string' }], items: false }, 'an array of a string'],
    [
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: { type: 'integer' } },
      'an array of a string, then true or false, then whole numbers',
    ],
    [{ type: 'array', items: true }, 'an array of values'],
    [{ type: 'array', items: { type: ['string', 'null'] } }, 'an array of strings'],
    [{ type: 'array', items: { type: ['string', 'integer'] } }, 'an array of values'],
    [{ type: 'array', items: { type: 'boolean' }, uniqueItems: true }, 'an array of different booleans'],
    [{ type: 'array', items: { type: 'array' }, maxItems: 1 }, 'an array of arrays of at most 1 item'],
    [{ type: 'array', items: { type: 'number' }, minItems: 0 }, 'an array of numbers'],
    [{ type: 'array', items: { type: 'object' }, minItems: 0, maxItems: 3 }, 'an array of objects of 0 to 3 items'],
    [{ type: 'object', minProperties: 2, maxProperties: 2 }, 'an object of exactly 2 members'],
    [{ minimum: 1 }, 'a number of at least 1'],
    [{ maxLength: 3 }, 'a string of at most 3 characters'],
    [{ minItems: 1 }, 'an array of values of at least 1 item'],
    [{ maxProperties: 1 }, 'an object of at most 1 member'],
    [{ minimum: 1, maxLength: 3 }, 'any value'],
    [{ description: 'Anything.' }, 'any value'],
    [{ not: { type: 'string' } }, 'any value'],
    // A bound at the edge of the safe range says nothing: every whole number the binder takes is within it.
    [{ type: 'integer', minimum: 2 ** 53 - 1 }, 'a whole number'],
    [{ type: 'integer', minimum: 2 ** 53 - 2 }, 'a whole number of at least 9007199254740990'],
    [{ type: 'integer', maximum: -(2 ** 53) }, 'a whole number'],
    [{ type: 'number', minimum: 2 ** 53 }, 'a number of at least 9007199254740992'],
    [{ type: 'integer', minimum: 0, exclusiveMaximum: 10 }, 'a whole number at least 0 and less than 10'],
    [{ type: 'number', exclusiveMinimum: 0, maximum: 1 }, 'a number greater than 0 and at most 1'],
    [{ type: 'number', exclusiveMinimum: 0, minimum: 5 }, 'a number greater than 0'],
    [{ type: 'number', maximum: 3, exclusiveMaximum: 5 }, 'a number less than 5'],
  ])('%j: %s', (schema, expected) => {
    expect(describeExpectation(schema)).toBe(expected);
  });

  it('describes a recursive schema four $refs deep, then as any value', () => {
    const root = {
      $defs: { T: { anyOf: [{ type: 'string' }, { type: 'array', prefixItems: [{ $ref: '#/$defs/T' }] }] } },
    } as unknown as PublishedSchema;
    expect(describeExpectation({ $ref: '#/$defs/T' }, root)).toBe(
      'a string, or an array of a string, or an array of a string, or an array of a string, or an array of any ' +
        'value, then any values, then any values, then any values, then any values',
    );
  });
});

describe('a bound on a length or a count', () => {
  it('names an upper bound alone, and says nothing of a lower bound of 0', () => {
    const root = {} as PublishedSchema;
    const strings = { type: 'string' };
    expect(describeExpectation({ type: 'array', items: strings, maxItems: 3 } as PublishedSchema, root)).toBe(
      'an array of strings of at most 3 items',
    );
    expect(describeExpectation({ type: 'array', items: strings, minItems: 0 } as PublishedSchema, root)).toBe(
      'an array of strings',
    );
    expect(describeExpectation({ type: 'string', maxLength: 4 } as PublishedSchema, root)).toBe(
      'a string of at most 4 characters',
    );
    expect(describeExpectation({ type: 'string', minLength: 0 } as PublishedSchema, root)).toBe('a string');
    expect(describeExpectation({ type: 'object', minProperties: 0 } as PublishedSchema, root)).toBe('an object');
  });

  it('describes a nullable alternative as its value, or null (not as one alternative among others)', () => {
    const root = {} as PublishedSchema;
    const point = { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] };
    expect(describeExpectation({ anyOf: [point, { type: 'null' }] } as PublishedSchema, root)).toBe(
      'an object, or null',
    );
  });
});
