import { quoteValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { nullableAlternative, resolveRef, typesOf } from '../schema/schemaFacts.js';
import { KEYWORDS } from '../schema/schemaKeywords.js';

const SAFE = Number.MAX_SAFE_INTEGER;
/** How many `$ref`s deep a description follows a recursive schema before saying `a value`. */
const REF_DEPTH = 4;

/**
 * What a schema node expects, in words a model acts on: `a whole number between 1 and 100`,
 * `one of "C", "F"`, `a string of at most 5 characters`, `a string, or an array of strings`.
 * Computed once, when the tool is defined. `root` resolves `$ref`s.
 */
export function describeExpectation(schema: unknown, root: PublishedSchema = {}, depth = 0): string {
  const node = resolveRef(root, schema);
  if (node === true || (isPlainObject(node) && isPlainObject(schema) && '$ref' in schema && depth >= REF_DEPTH))
    return 'any value';
  if (node === false) return 'nothing (no value is allowed here)';
  if (!isPlainObject(node)) return 'a value';
  const next = isPlainObject(schema) && '$ref' in schema ? depth + 1 : depth;
  const alternatives = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (alternatives !== undefined) {
    const nullable = nullableAlternative(node);
    if (nullable !== undefined) return `${describeExpectation(nullable, root, next)}, or null`;
    return alternatives.map((a) => describeAlternative(a, root, next)).join(', or ');
  }
  const types = typesOf(node);
  // A closed set lists null itself, if it takes it.
  const closed = 'const' in node || Array.isArray(node.enum);
  const nullable = types?.includes('null') === true && types.length > 1 && !closed;
  const base = describeNonNull(
    node,
    root,
    next,
    types?.filter((t) => t !== 'null'),
  );
  return nullable ? `${base}, or null` : base;
}

/** One alternative of a union: like {@link describeExpectation}, naming an object's members. */
export function describeAlternative(schema: unknown, root: PublishedSchema, depth = 0): string {
  const node = resolveRef(root, schema);
  const described = describeExpectation(schema, root, depth);
  if (!isPlainObject(node) || described !== 'an object' || !isPlainObject(node.properties)) return described;
  const names = Object.keys(node.properties);
  if (names.length === 0) return described;
  const shown = names.slice(0, 4).map((n) => `'${n}'`);
  return `an object with ${shown.join(', ')}${names.length > 4 ? ', ...' : ''}`;
}

function describeNonNull(
  schema: PublishedSchema,
  root: PublishedSchema,
  depth: number,
  types: string[] | undefined,
): string {
  if ('const' in schema) return `exactly ${quoteValue(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => quoteValue(v)).join(', ')}`;
  if (types === undefined) {
    // No type: the keywords say what kind of value they are about (`{ pattern: '^x' }` is about strings).
    const implied = impliedType(schema);
    return implied === undefined ? 'any value' : describeType(schema, root, depth, implied);
  }
  if (types.length === 0) return 'null';
  return types.map((t) => describeType(schema, root, depth, t)).join(' or ');
}

/** The one type a typeless node's keywords apply to, if they all apply to the same one. */
function impliedType(schema: PublishedSchema): string | undefined {
  const kinds = new Set<string>();
  for (const keyword of Object.keys(schema)) {
    const role = KEYWORDS[keyword];
    // A numeric keyword lists `number` first, so numbers are described as numbers, not whole ones.
    if (role?.role === 'checked' && role.types !== undefined) kinds.add(role.types[0]!);
  }
  return kinds.size > 1 ? undefined : [...kinds][0];
}

function describeType(schema: PublishedSchema, root: PublishedSchema, depth: number, type: string): string {
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
      return describeArray(schema, root, depth);
    case 'object':
      return joinParts('an object', [memberPhrase(schema)]);
    default:
      return 'a value';
  }
}

function describeArray(schema: PublishedSchema, root: PublishedSchema, depth: number): string {
  const tuple = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]) : [];
  const unique = schema.uniqueItems === true ? 'different ' : '';
  if (tuple.length === 0) {
    return joinParts(`an array of ${unique}${pluralOf(schema.items, root)}`, [countPhrase(schema)]);
  }
  const parts = tuple.map((item) => describeExpectation(item, root, depth)).join(', then ');
  const rest =
    schema.items === false
      ? ''
      : schema.items === undefined || schema.items === true
        ? ', then any values'
        : `, then ${pluralOf(schema.items, root)}`;
  return `an array of ${parts}${rest}`;
}

function memberPhrase(schema: PublishedSchema): string | undefined {
  return boundsPhrase(schema.minProperties as number | undefined, schema.maxProperties as number | undefined, 'member');
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
  const least = min ?? 0;
  if (least > 0) return `of at least ${units(least)}`;
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
function pluralOf(schema: unknown, root: PublishedSchema): string {
  const items = resolveRef(root, schema);
  if (!isPlainObject(items) || 'const' in items || Array.isArray(items.enum)) return 'values';
  const types = typesOf(items)?.filter((t) => t !== 'null');
  if (types?.length !== 1) return 'values';
  const type = types[0];
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
