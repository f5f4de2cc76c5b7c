import { quoteValue } from '../../json/describeValue.js';
import type { PublishedSchema } from '../schema/prepareSchema.js';

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * What a schema node expects, in words a model acts on: `a whole number between 1 and 100`,
 * `one of "C", "F"`, `a string of at most 5 characters`. Computed once, when the tool is defined.
 */
export function describeExpectation(schema: PublishedSchema): string {
  const nullable = Array.isArray(schema.type);
  const base = describeNonNull(schema);
  return nullable ? `${base}, or null` : base;
}

function describeNonNull(schema: PublishedSchema): string {
  if ('const' in schema) return `exactly ${quoteValue(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => quoteValue(v)).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return joinParts('a string', [lengthPhrase(schema), patternPhrase(schema), formatPhrase(schema)]);
    case 'integer':
      return joinParts('a whole number', [rangePhrase(schema, true), multiplePhrase(schema)]);
    case 'number':
      return joinParts('a number', [rangePhrase(schema, false), multiplePhrase(schema)]);
    case 'boolean':
      return 'true or false';
    case 'array':
      return joinParts(`an array of ${pluralOf(schema.items as PublishedSchema)}`, [countPhrase(schema)]);
    case 'object':
      return 'an object';
    default:
      return 'a value';
  }
}

function joinParts(head: string, parts: (string | undefined)[]): string {
  const present = parts.filter((p): p is string => p !== undefined);
  return present.length === 0 ? head : `${head} ${present.join(' and ')}`;
}

function lengthPhrase(schema: PublishedSchema): string | undefined {
  return boundsPhrase(schema.minLength as number | undefined, schema.maxLength as number | undefined, 'character');
}

function countPhrase(schema: PublishedSchema): string | undefined {
  return boundsPhrase(schema.minItems as number | undefined, schema.maxItems as number | undefined, 'item');
}

function boundsPhrase(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const units = (n: number) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined)
    return min === max ? `of exactly ${units(min)}` : `of ${min} to ${units(max)}`;
  if (min !== undefined && min > 0) return `of at least ${units(min)}`;
  if (max !== undefined) return `of at most ${units(max)}`;
  return undefined;
}

function patternPhrase(schema: PublishedSchema): string | undefined {
  return typeof schema.pattern === 'string' ? `matching the pattern ${schema.pattern}` : undefined;
}

function formatPhrase(schema: PublishedSchema): string | undefined {
  return typeof schema.format === 'string' ? `in ${schema.format} format` : undefined;
}

/** Bounds at the edge of the safe integer range say nothing a model needs to read. */
function rangePhrase(schema: PublishedSchema, integer: boolean): string | undefined {
  const meaningful = (n: unknown): n is number => typeof n === 'number' && !(integer && Math.abs(n) >= SAFE);
  const { minimum: min, maximum: max, exclusiveMinimum: exMin, exclusiveMaximum: exMax } = schema;
  const lower = meaningful(exMin) ? `greater than ${exMin}` : meaningful(min) ? `at least ${min}` : undefined;
  const upper = meaningful(exMax) ? `less than ${exMax}` : meaningful(max) ? `at most ${max}` : undefined;
  if (!meaningful(exMin) && !meaningful(exMax) && meaningful(min) && meaningful(max))
    return `between ${min} and ${max}`;
  if (lower !== undefined && upper !== undefined) return `${lower} and ${upper}`;
  const one = lower ?? upper;
  if (one === undefined) return undefined;
  // "a number of at least 1" but "a number greater than 0".
  return one.startsWith('at ') ? `of ${one}` : one;
}

function multiplePhrase(schema: PublishedSchema): string | undefined {
  return typeof schema.multipleOf === 'number' ? `a multiple of ${schema.multipleOf}` : undefined;
}

/** `strings`, `whole numbers`, `objects`: the item kind for `an array of ...`. */
function pluralOf(items: PublishedSchema): string {
  if ('const' in items || Array.isArray(items.enum)) return 'values';
  const type = Array.isArray(items.type) ? items.type[0] : items.type;
  const plurals: Record<string, string> = {
    string: 'strings',
    integer: 'whole numbers',
    number: 'numbers',
    boolean: 'booleans',
    array: 'arrays',
    object: 'objects',
  };
  return plurals[type as string] ?? 'values';
}
