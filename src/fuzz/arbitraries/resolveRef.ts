import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { resolveRef as follow } from '../../tools/schema/schemaFacts.js';
import { parseLocalRef, valueAtPointer } from '../../tools/schema/schemaPointer.js';
import type { SchemaNode } from './schemaNode.js';

/**
 * The node a local `$ref` names in the schema it belongs to (read as the binder reads it). The
 * published schema keeps only local refs that resolve, so an unresolvable one is a bug in the
 * caller: it throws.
 */
export function resolveRef(root: PublishedSchema, ref: string): SchemaNode {
  const local = parseLocalRef(ref);
  const node = local?.kind === 'pointer' ? valueAtPointer(root, local.tokens) : undefined;
  if (node === undefined) throw new Error(`the $ref '${ref}' names no node of the schema`);
  return node as SchemaNode;
}

/** A node with its `$ref`s followed (a chain of refs to refs too). */
export function resolved(node: SchemaNode, root: PublishedSchema): SchemaNode {
  return follow(root, node) as SchemaNode;
}
