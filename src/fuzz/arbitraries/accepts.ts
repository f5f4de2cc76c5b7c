import { canonicalJson } from '../../json/canonicalJson.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { isMultipleOf } from '../../tools/binder/isMultipleOf.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { FORMAT_CHECKS } from '../../tools/schema/formats.js';
import { characterCount } from './characterCount.js';
import { resolveRef } from './resolveRef.js';
import { alternativesOf, itemSchemaAt, propertiesOf, requiredOf, type SchemaNode } from './schemaNode.js';

/**
 * Whether the binder takes `value` for `node`: JSON Schema 2020-12 validation of the published
 * form with the binder's own differences (a declared property whose value is null and whose schema
 * refuses null counts as absent, or as its default; a required property left out takes its default;
 * multipleOf is decimal; formats are legate's; an integer lies within the safe range).
 * Written apart from the binder, so the fuzzers can predict what it should do without asking it.
 */
export function accepts(node: SchemaNode, value: unknown, root: PublishedSchema): boolean {
  if (typeof node === 'boolean') return node;
  if (typeof node.$ref === 'string' && !accepts(resolveRef(root, node.$ref), value, root)) return false;
  if ('const' in node && !sameJson(node.const, value)) return false;
  if (Array.isArray(node.enum) && !node.enum.some((option) => sameJson(option, value))) return false;
  if (!hasType(node, value)) return false;
  if (typeof value === 'number' && !numberFits(node, value)) return false;
  if (typeof value === 'string' && !stringFits(node, value)) return false;
  if (Array.isArray(value) && !arrayFits(node, value, root)) return false;
  if (isPlainObject(value) && !objectFits(node, value, root)) return false;
  if (Array.isArray(node.anyOf) && !node.anyOf.some((alternative) => accepts(alternative, value, root))) return false;
  if (Array.isArray(node.oneOf) && node.oneOf.filter((alternative) => accepts(alternative, value, root)).length !== 1)
    return false;
  if (node.not !== undefined && accepts(node.not as SchemaNode, value, root)) return false;
  if (node.if !== undefined) {
    const branch = accepts(node.if as SchemaNode, value, root) ? node.then : node.else;
    if (branch !== undefined && !accepts(branch as SchemaNode, value, root)) return false;
  }
  return true;
}

/** JSON equality: objects by their keys whatever the order, arrays item by item, 1 equal to 1.0. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** The index of a union's first alternative (in order) that takes the value; -1 when none does. */
export function firstAlternativeTaking(node: PublishedSchema, value: unknown, root: PublishedSchema): number {
  return (alternativesOf(node) ?? []).findIndex((alternative) => accepts(alternative, value, root));
}

function hasType(node: PublishedSchema, value: unknown): boolean {
  if (node.type === undefined) return true;
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  return types.some((type) => isOfType(value, type));
}

/**
 * Whether a value is of a JSON type. An integer is a number without a fraction (1.0 included) within
 * the safe range, as the binder reads it (docs/tools.md: beyond ±2^53 a whole number is refused).
 */
function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return false;
  }
}

function numberFits(node: PublishedSchema, n: number): boolean {
  if (!Number.isFinite(n)) return false;
  if (typeof node.minimum === 'number' && n < node.minimum) return false;
  if (typeof node.maximum === 'number' && n > node.maximum) return false;
  if (typeof node.exclusiveMinimum === 'number' && n <= node.exclusiveMinimum) return false;
  if (typeof node.exclusiveMaximum === 'number' && n >= node.exclusiveMaximum) return false;
  return typeof node.multipleOf !== 'number' || isMultipleOf(n, node.multipleOf);
}

const patterns = new Map<string, RegExp>();

/** A schema's `pattern` as the binder runs it: unanchored, with the `u` flag. */
export function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (pattern === undefined) {
    pattern = new RegExp(source, 'u');
    patterns.set(source, pattern);
  }
  return pattern;
}

function stringFits(node: PublishedSchema, text: string): boolean {
  const length = characterCount(text);
  if (typeof node.minLength === 'number' && length < node.minLength) return false;
  if (typeof node.maxLength === 'number' && length > node.maxLength) return false;
  if (typeof node.pattern === 'string' && !patternOf(node.pattern).test(text)) return false;
  const check = typeof node.format === 'string' ? FORMAT_CHECKS.get(node.format) : undefined;
  return check === undefined || check(text);
}

function arrayFits(node: PublishedSchema, items: unknown[], root: PublishedSchema): boolean {
  if (typeof node.minItems === 'number' && items.length < node.minItems) return false;
  if (typeof node.maxItems === 'number' && items.length > node.maxItems) return false;
  if (!items.every((item, i) => accepts(itemSchemaAt(node, i), item, root))) return false;
  if (node.uniqueItems === true && items.some((item, i) => items.slice(i + 1).some((other) => sameJson(item, other))))
    return false;
  if (node.contains === undefined) return true;
  const matches = items.filter((item) => accepts(node.contains as SchemaNode, item, root)).length;
  const min = (node.minContains as number | undefined) ?? 1;
  return matches >= min && matches <= ((node.maxContains as number | undefined) ?? Infinity);
}

function objectFits(node: PublishedSchema, sent: Record<string, unknown>, root: PublishedSchema): boolean {
  const value = withoutAbsentNulls(node, sent, root);
  const keys = Object.keys(value);
  if (typeof node.minProperties === 'number' && keys.length < node.minProperties) return false;
  if (typeof node.maxProperties === 'number' && keys.length > node.maxProperties) return false;
  // A required property left out takes its default, where it has one (the binder's reading).
  const defaulted = (key: string) => {
    const property = propertiesOf(node)[key];
    return typeof property === 'object' && 'default' in property;
  };
  if (!requiredOf(node).every((key) => Object.hasOwn(value, key) || defaulted(key))) return false;
  const dependencies = (node.dependentRequired as Record<string, string[]> | undefined) ?? {};
  for (const [key, needed] of Object.entries(dependencies))
    if (Object.hasOwn(value, key) && !needed.every((other) => Object.hasOwn(value, other))) return false;
  const properties = propertiesOf(node);
  const patternSchemas = Object.entries((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {});
  for (const key of keys) {
    if (node.propertyNames !== undefined && !accepts(node.propertyNames as SchemaNode, key, root)) return false;
    const item = value[key];
    let matched = Object.hasOwn(properties, key);
    if (matched && !accepts(properties[key]!, item, root)) return false;
    for (const [pattern, schema] of patternSchemas) {
      if (!patternOf(pattern).test(key)) continue;
      matched = true;
      if (!accepts(schema, item, root)) return false;
    }
    if (
      !matched &&
      node.additionalProperties !== undefined &&
      !accepts(node.additionalProperties as SchemaNode, item, root)
    )
      return false;
  }
  return true;
}

/**
 * The object as the binder reads it: a declared property whose value is null where its schema
 * refuses null is absent, or its default when it has one (null as absent).
 */
export function withoutAbsentNulls(
  node: PublishedSchema,
  value: Record<string, unknown>,
  root: PublishedSchema,
): Record<string, unknown> {
  const properties = propertiesOf(node);
  let result = value;
  for (const [key, property] of Object.entries(properties)) {
    if (value[key] !== null || !Object.hasOwn(value, key) || accepts(property, null, root)) continue;
    if (result === value) result = { ...value };
    if (typeof property === 'object' && 'default' in property) result[key] = property.default;
    else delete result[key];
  }
  return result;
}
