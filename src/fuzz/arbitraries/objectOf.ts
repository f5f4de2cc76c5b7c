import { fc } from '../fastCheck.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { accepts, patternOf, withoutAbsentNulls } from './accepts.js';
import { costOf, FREE_REF_DEPTH, type Generation } from './generation.js';
import { keepOnly } from './keepOnly.js';
import { propertiesOf, requiredOf, type SchemaNode } from './schemaNode.js';
import { ownCopy } from './ownCopy.js';
import { matching, stringOf } from './stringOf.js';

/** How many keys beyond the declared properties an object that allows them is given, at most. */
const EXTRA_KEYS = 3;

/** One property an object must hold (or must lack): where a malformed input puts its broken value. */
interface PlacedProperty {
  key: string;
  /** The value, or 'absent' to leave the property out. */
  values: fc.Arbitrary<unknown> | 'absent';
}

/**
 * Objects an object node takes: declared properties (the required ones always, the others now and
 * then), keys matched by patternProperties, extra keys where additionalProperties allows them (a
 * free-form object gets any keys with any JSON values), propertyNames, min/maxProperties and
 * dependentRequired met. With `placed`, the object holds (or lacks) that property.
 */
export function objectOf(
  node: PublishedSchema,
  generation: Generation,
  depth: number,
  placed?: PlacedProperty,
): fc.Arbitrary<Record<string, unknown>> | undefined {
  const root = generation.root;
  const minimal = depth >= FREE_REF_DEPTH;
  const required = requiredClosure(node, placed?.key);
  const declared: Record<string, fc.Arbitrary<unknown>> = {};
  // A required property with a default may be left out or sent as null: it takes the default
  // (an absence rule).
  const defaulted = (key: string) => {
    const property = propertiesOf(node)[key];
    return generation.absences && typeof property === 'object' && 'default' in property;
  };
  for (const [key, property] of Object.entries(propertiesOf(node))) {
    if (key === placed?.key || (minimal && !required.has(key))) continue;
    const values = costOf(generation, property) === Infinity ? undefined : generation.valuesOf(property, depth);
    if (values === undefined) {
      if (required.has(key)) return undefined;
      continue;
    }
    declared[key] =
      generation.absences && (!required.has(key) || defaulted(key)) && !accepts(property, null, root)
        ? fc.oneof({ weight: 9, arbitrary: values }, { weight: 1, arbitrary: fc.constant(null) })
        : values;
  }
  const requiredKeys = Object.keys(declared).filter((key) => required.has(key) && !defaulted(key));
  const record = fc.record(declared, { requiredKeys, noNullPrototype: true });
  const extras = minimal ? fc.constant([]) : extraEntries(node, generation, depth);
  const place = placed === undefined ? fc.constant(undefined) : placedEntry(placed);
  const objects = fc.tuple(record, extras, place).map(([generated, entries, entry]) => {
    const object = ownCopy(generated);
    for (const [key, value] of entries) if (!Object.hasOwn(object, key)) object[key] = value;
    if (entry !== undefined) {
      if (entry.value === 'absent') delete object[entry.key];
      else object[entry.key] = entry.value;
    }
    // A placed key must not be the one that breaks maxProperties: optional keys make room for it.
    if (entry !== undefined && typeof node.maxProperties === 'number') {
      const spare = Object.keys(object).filter((key) => key !== entry.key && !required.has(key));
      while (Object.keys(object).length > node.maxProperties && spare.length > 0) delete object[spare.pop()!];
    }
    return withDependents(node, object, required, root);
  });
  const counted = node.minProperties !== undefined || node.maxProperties !== undefined;
  if (placed === undefined && (counted || node.patternProperties !== undefined || node.propertyNames !== undefined))
    return keepOnly(objects, (object) => accepts(node, object, root));
  return objects;
}

function placedEntry(placed: PlacedProperty): fc.Arbitrary<{ key: string; value: unknown }> {
  const values = placed.values === 'absent' ? fc.constant('absent') : placed.values;
  return values.map((value) => ({ key: placed.key, value }));
}

/** Keys beyond the declared ones, with values their schema takes: patternProperties, then additional keys. */
function extraEntries(node: PublishedSchema, generation: Generation, depth: number): fc.Arbitrary<[string, unknown][]> {
  const root = generation.root;
  const declared = propertiesOf(node);
  const patterns = Object.entries((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {});
  const names = node.propertyNames as SchemaNode | undefined;
  const nameOk = (key: string) =>
    key !== '__proto__' && !Object.hasOwn(declared, key) && (names === undefined || accepts(names, key, root));
  const parts: fc.Arbitrary<[string, unknown][]>[] = [];
  for (const [pattern, schema] of patterns) {
    const values = generation.valuesOf(schema, depth);
    const keys = keepOnly(matching(pattern), nameOk);
    if (values !== undefined && keys !== undefined)
      parts.push(fc.array(fc.tuple(keys, values), { maxLength: EXTRA_KEYS - 1 }));
  }
  const additional = (node.additionalProperties as SchemaNode | undefined) ?? true;
  const values = generation.valuesOf(additional, depth);
  const free = typeof names === 'object' ? keysOf(names) : fc.string({ maxLength: 12 });
  const keys = keepOnly(free, (key) => nameOk(key) && !patterns.some(([pattern]) => patternOf(pattern).test(key)));
  if (values !== undefined && keys !== undefined)
    parts.push(fc.array(fc.tuple(keys, values), { maxLength: EXTRA_KEYS }));
  if (parts.length === 0) return fc.constant([]);
  return fc.tuple(...parts).map((lists) => lists.flat());
}

/** Keys a propertyNames schema takes: its enum or const, or texts of its length, pattern and format. */
function keysOf(names: PublishedSchema): fc.Arbitrary<string> {
  const listed = 'const' in names ? [names.const] : Array.isArray(names.enum) ? names.enum : undefined;
  const strings = listed?.filter((key): key is string => typeof key === 'string');
  if (strings !== undefined) return strings.length > 0 ? fc.constantFrom(...strings) : fc.constant('');
  return stringOf(names);
}

/** The required properties (and the one placed) and every property they depend on (dependentRequired), transitively. */
function requiredClosure(node: PublishedSchema, placed: string | undefined): Set<string> {
  const dependencies = (node.dependentRequired as Record<string, string[]> | undefined) ?? {};
  const required = new Set(requiredOf(node));
  if (placed !== undefined) required.add(placed);
  for (const key of required) for (const other of dependencies[key] ?? []) required.add(other);
  return required;
}

/** The object without the optional keys whose dependents (dependentRequired) are missing, as the binder reads it. */
function withDependents(
  node: PublishedSchema,
  object: Record<string, unknown>,
  required: Set<string>,
  root: PublishedSchema,
): Record<string, unknown> {
  const dependencies = (node.dependentRequired ?? undefined) as Record<string, string[]> | undefined;
  // Most objects have none: then nothing is left out, and nothing need be read.
  if (dependencies === undefined) return object;
  for (let changed = true; changed; ) {
    changed = false;
    // A null the binder reads as absent does not count as present.
    const read = withoutAbsentNulls(node, object, root);
    for (const [key, needed] of Object.entries(dependencies)) {
      if (!Object.hasOwn(read, key) || required.has(key)) continue;
      if (needed.every((other) => Object.hasOwn(read, other))) continue;
      delete object[key];
      changed = true;
    }
  }
  return object;
}
