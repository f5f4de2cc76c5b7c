import { fc } from '../fastCheck.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { accepts } from './accepts.js';
import { arrayOf } from './arrayOf.js';
import { costOf, FREE_REF_DEPTH, type Generation } from './generation.js';
import { instanceCosts } from './instanceCost.js';
import { keepOnly } from './keepOnly.js';
import { integerOf, numberOf } from './numberOf.js';
import { objectOf } from './objectOf.js';
import { resolveRef } from './resolveRef.js';
import { alternativesOf, type JsonType, type SchemaNode, typesOf } from './schemaNode.js';
import { stringOf } from './stringOf.js';

/**
 * Values a node of a published schema takes (JSON Schema 2020-12, as the binder reads it):
 * every constraint the model was shown is met, so the binder must accept each one. With
 * `absences`, inputs also use the binder's absence rules (a null for an optional property whose
 * schema refuses null, a required property with a default left out), which JSON Schema does not
 * have. Undefined when the node has no value that can be generated.
 */
export function arbitraryOf(
  node: SchemaNode,
  root: PublishedSchema,
  absences = false,
): fc.Arbitrary<unknown> | undefined {
  return valuesOf(node, generationFor(root, absences), 0);
}

const generations = new WeakMap<PublishedSchema, Generation[]>();

/** The generation for a schema, built once per root and flag. */
export function generationFor(root: PublishedSchema, absences = false): Generation {
  let pair = generations.get(root);
  if (pair === undefined) {
    const costs = instanceCosts(root);
    pair = [false, true].map((flag) => {
      const generation: Generation = {
        root,
        costs,
        absences: flag,
        built: new Map(),
        valuesOf: (node, depth) => valuesOf(node, generation, depth),
      };
      return generation;
    });
    generations.set(root, pair);
  }
  return pair[absences ? 1 : 0]!;
}

/** Values of a node at a depth (levels of `$ref` followed); undefined when there are none. */
export function valuesOf(node: SchemaNode, generation: Generation, depth: number): fc.Arbitrary<unknown> | undefined {
  const level = Math.min(depth, FREE_REF_DEPTH);
  let byDepth = generation.built.get(node);
  if (byDepth === undefined) {
    byDepth = [];
    generation.built.set(node, byDepth);
  }
  const known = byDepth[level];
  if (known !== undefined) return known ?? undefined;
  const built = build(node, generation, level) ?? null;
  byDepth[level] = built;
  return built ?? undefined;
}

/** Any JSON value. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3, noUnicodeString: false });

function build(node: SchemaNode, generation: Generation, depth: number): fc.Arbitrary<unknown> | undefined {
  if (typeof node === 'boolean') return node ? anyJson : undefined;
  const root = generation.root;
  const checked = (values: fc.Arbitrary<unknown> | undefined) =>
    values === undefined ? undefined : keepOnly(values, (value) => accepts(node, value, root));
  if (typeof node.$ref === 'string') {
    const target = valuesOf(resolveRef(root, node.$ref), generation, depth + 1);
    return hasOtherRules(node, ['$ref']) ? checked(target) : target;
  }
  if ('const' in node) return checked(fc.constant(node.const).map(copyOf));
  if (Array.isArray(node.enum)) return checked(fc.constantFrom(...node.enum).map(copyOf));
  const alternatives = alternativesOf(node);
  if (alternatives !== undefined) {
    const values = unionOf(node, alternatives, generation, depth);
    return hasOtherRules(node, ['anyOf', 'oneOf']) ? checked(values) : values;
  }
  const values = typedOf(node, generation, depth);
  return node.not !== undefined || node.if !== undefined ? checked(values) : values;
}

/** Values of a union: each alternative's own; for oneOf, only those no other alternative takes. */
function unionOf(
  node: PublishedSchema,
  alternatives: SchemaNode[],
  generation: Generation,
  depth: number,
): fc.Arbitrary<unknown> | undefined {
  const cheapest = Math.min(...alternatives.map((alternative) => costOf(generation, alternative)));
  const options: fc.Arbitrary<unknown>[] = [];
  for (const alternative of alternatives) {
    if (depth >= FREE_REF_DEPTH && costOf(generation, alternative) > cheapest) continue;
    let values = valuesOf(alternative, generation, depth);
    if (values !== undefined && Array.isArray(node.oneOf)) {
      const others = alternatives.filter((other) => other !== alternative);
      values = keepOnly(values, (value) => !others.some((other) => accepts(other, value, generation.root)));
    }
    if (values !== undefined) options.push(values);
  }
  return options.length === 0 ? undefined : fc.oneof(...options);
}

function typedOf(node: PublishedSchema, generation: Generation, depth: number): fc.Arbitrary<unknown> | undefined {
  const options = typesOf(node)
    .map((type) => ofType(type, node, generation, depth))
    .filter((values) => values !== undefined);
  return options.length === 0 ? undefined : fc.oneof(...options);
}

function ofType(
  type: JsonType,
  node: PublishedSchema,
  generation: Generation,
  depth: number,
): fc.Arbitrary<unknown> | undefined {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerOf(node);
    case 'number':
      return numberOf(node);
    case 'string':
      return stringOf(node);
    case 'array':
      return arrayOf(node, generation, depth);
    case 'object':
      return objectOf(node, generation, depth);
  }
}

/**
 * Whether a node states a rule beside the keywords its values were generated from (a `$ref` or a
 * union with siblings, which the published form merges away but a hand-written schema may keep).
 */
function hasOtherRules(node: PublishedSchema, generatedFrom: string[]): boolean {
  return Object.keys(node).some((key) => !generatedFrom.includes(key) && RULES.has(key));
}

/** Validation keywords (everything else in a published schema is an annotation). */
const RULES = new Set([
  'not',
  'if',
  'anyOf',
  'oneOf',
  'const',
  'enum',
  'type',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
]);

function copyOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
