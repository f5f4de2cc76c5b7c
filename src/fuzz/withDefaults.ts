import { isPlainObject } from '../json/jsonValue.js';
import type { PublishedSchema } from '../tools/schema/publishedSchema.js';
import { accepts, firstAlternativeTaking, patternOf } from './arbitraries/accepts.js';
import { setOwn } from './arbitraries/ownCopy.js';
import { resolveRef } from './arbitraries/resolveRef.js';
import { alternativesOf, itemSchemaAt, propertiesOf, type SchemaNode } from './arbitraries/schemaNode.js';

/**
 * What the binder should hand `run` for a valid input, worked out apart from the binder: objects
 * rebuilt with their declared properties bound (an absent one with a default gets a copy of it; a
 * null reads as absent where the property's schema refuses null, and as the default where there is
 * one), extra keys kept and bound through their patternProperties or additionalProperties schema,
 * arrays item by item, a union through the first alternative that takes the value, a `$ref` as its
 * target. A free-form object is passed as sent.
 */
export function withDefaults(
  node: SchemaNode,
  value: unknown,
  root: PublishedSchema = node as PublishedSchema,
): unknown {
  if (typeof node === 'boolean') return value;
  if (typeof node.$ref === 'string') return withDefaults(resolveRef(root, node.$ref), value, root);
  const alternatives = alternativesOf(node);
  if (alternatives !== undefined) {
    const taking = firstAlternativeTaking(node, value, root);
    return taking === -1 ? value : withDefaults(alternatives[taking]!, value, root);
  }
  if (Array.isArray(value)) return value.map((item, index) => withDefaults(itemSchemaAt(node, index), item, root));
  return isPlainObject(value) ? boundObject(node, value, root) : value;
}

function boundObject(node: PublishedSchema, value: Record<string, unknown>, root: PublishedSchema): unknown {
  const properties = propertiesOf(node);
  const bound: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const sent = Object.hasOwn(value, key) ? value[key] : undefined;
    const fallback = typeof property === 'object' && 'default' in property;
    if (sent === undefined || (sent === null && (fallback || !accepts(property, null, root)))) {
      if (fallback) bound[key] = structuredClone((property as PublishedSchema).default);
    } else bound[key] = withDefaults(property, sent, root);
  }
  const patterns = Object.entries((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {});
  const additional = (node.additionalProperties as SchemaNode | undefined) ?? true;
  for (const [key, sent] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) continue;
    const matched = patterns.filter(([pattern]) => patternOf(pattern).test(key)).map(([, schema]) => schema);
    if (matched.length === 0 && additional === false) continue;
    const schemas = matched.length > 0 ? matched : [additional];
    setOwn(
      bound,
      key,
      schemas.reduce((result, schema) => withDefaults(schema, result, root), sent),
    );
  }
  return bound;
}
