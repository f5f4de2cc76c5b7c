import type { JsonPath } from '../../json/jsonPath.js';
import { isPlainObject } from '../../json/jsonValue.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { parseLocalRef, valueAtPointer } from '../schema/schemaPointer.js';

/**
 * Whether a string being written at `path` may be shown before it is whole: not where the schema
 * allows only listed values there (`enum` or `const`, in any alternative), since `"ship"` is no
 * progress towards `"shipped"` a reader could use. Reads the whole schema, `$ref`s followed.
 */
export function partialStringAllowed(schema: PublishedSchema): (path: JsonPath) => boolean {
  return (path) => {
    let nodes = expand(schema, [schema]);
    for (const key of path)
      nodes = expand(
        schema,
        nodes.flatMap((node) => childSchemas(node, key)),
      );
    return !nodes.some((node) => 'enum' in node || 'const' in node);
  };
}

/** The schemas a value at `key` below `node` must match. */
function childSchemas(node: Record<string, unknown>, key: string | number): unknown[] {
  if (typeof key === 'number') {
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    return [key < prefix.length ? prefix[key] : node.items];
  }
  const properties = isPlainObject(node.properties) ? node.properties : {};
  if (Object.hasOwn(properties, key)) return [properties[key]];
  const patterns = isPlainObject(node.patternProperties) ? Object.values(node.patternProperties) : [];
  return [...patterns, node.additionalProperties];
}

/** The schema objects among `nodes`, with `$ref`s resolved and every alternative and part listed. */
function expand(root: PublishedSchema, nodes: unknown[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isPlainObject(node) || seen.has(node)) continue;
    seen.add(node);
    out.push(node);
    if (typeof node.$ref === 'string') {
      const ref = parseLocalRef(node.$ref);
      if (ref?.kind === 'pointer') stack.push(valueAtPointer(root, ref.tokens));
    }
    for (const union of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(node[union])) stack.push(...(node[union] as unknown[]));
  }
  return out;
}
