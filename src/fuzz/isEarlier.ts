import type { ArgumentPath } from '../tools/binder/invalidArgument.js';
import type { PublishedSchema } from '../tools/schema/publishedSchema.js';
import { patternOf } from './arbitraries/accepts.js';
import { resolved } from './arbitraries/resolveRef.js';
import { alternativesOf, itemSchemaAt, propertiesOf, type SchemaNode, typesOf } from './arbitraries/schemaNode.js';

/**
 * Whether place `a` comes before place `b` in declaration order: property order (a key that is not
 * declared after every declared one), then item index; a place before the places inside it. Refs
 * are followed; below a union, the first alternative that declares the key (or allows arrays) is read.
 */
export function isEarlier(root: PublishedSchema, a: ArgumentPath, b: ArgumentPath): boolean {
  const ra = rank(root, a);
  const rb = rank(root, b);
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) if (ra[i] !== rb[i]) return ra[i]! < rb[i]!;
  return ra.length < rb.length;
}

function rank(root: PublishedSchema, path: ArgumentPath): number[] {
  const ranks: number[] = [];
  let node: SchemaNode | undefined = root;
  for (const key of path) {
    node = node === undefined ? undefined : holding(resolved(node, root), key, root);
    if (node === undefined || typeof node === 'boolean') {
      ranks.push(typeof key === 'number' ? key : Infinity);
      node = undefined;
      continue;
    }
    if (typeof key === 'number') {
      ranks.push(key);
      node = itemSchemaAt(node, key);
      continue;
    }
    const keys: string[] = Object.keys(propertiesOf(node));
    const index: number = keys.indexOf(key);
    ranks.push(index === -1 ? keys.length : index);
    node = index !== -1 ? propertiesOf(node)[key] : extraSchema(node, key);
  }
  return ranks;
}

/** The node itself, or below a union the first alternative that can hold the key. */
function holding(node: SchemaNode, key: string | number, root: PublishedSchema): SchemaNode | undefined {
  if (typeof node === 'boolean') return node;
  const alternatives = alternativesOf(node);
  if (alternatives === undefined) return node;
  for (const alternative of alternatives) {
    const target = holding(resolved(alternative, root), key, root);
    if (target === undefined || typeof target === 'boolean') continue;
    if (typeof key === 'number' ? typesOf(target).includes('array') : Object.hasOwn(propertiesOf(target), key))
      return target;
  }
  return undefined;
}

function extraSchema(node: PublishedSchema, key: string): SchemaNode | undefined {
  const patterns = Object.entries((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {});
  const matched = patterns.find(([pattern]) => patternOf(pattern).test(key));
  return matched?.[1] ?? (node.additionalProperties as SchemaNode | undefined);
}
