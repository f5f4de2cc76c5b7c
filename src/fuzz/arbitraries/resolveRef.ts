import type { PublishedSchema } from '../../tools/schema/prepareSchema.js';
import type { SchemaNode } from './schemaNode.js';

/**
 * The node a local `$ref` names in the schema it belongs to: `#` is the root, `#/$defs/X`,
 * `#/definitions/X` or any other JSON pointer a node inside it (`~1` is `/`, `~0` is `~`,
 * percent-encoding decoded). The published schema keeps only local refs that resolve, so an
 * unresolvable one is a bug in the caller: it throws.
 */
export function resolveRef(root: PublishedSchema, ref: string): SchemaNode {
  const pointer = decodeURIComponent(ref.startsWith('#') ? ref.slice(1) : ref);
  if (pointer === '') return root;
  let node: unknown = root;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    if (node === undefined) throw new Error(`the $ref '${ref}' names no node of the schema`);
  }
  return node as SchemaNode;
}

/** A node with its `$ref`s followed (a chain of refs to refs too, up to 32). */
export function resolved(node: SchemaNode, root: PublishedSchema): SchemaNode {
  let current = node;
  for (let hops = 0; typeof current === 'object' && typeof current.$ref === 'string' && hops < 32; hops++)
    current = resolveRef(root, current.$ref);
  return current;
}
