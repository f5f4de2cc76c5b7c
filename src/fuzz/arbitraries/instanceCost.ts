import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { resolveRef } from './resolveRef.js';
import { alternativesOf, itemSchemaAt, propertiesOf, requiredOf, type SchemaNode, typesOf } from './schemaNode.js';

/**
 * How small the smallest value of each node of a schema is: the number of nodes a generator
 * must visit to build it (Infinity: no value at all, e.g. `false`, or a recursion that never
 * ends). A recursive definition is generated freely to a depth and then by the cheapest route,
 * which strictly shrinks at every step, so a tree always ends and stays shallow.
 */
export type InstanceCosts = ReadonlyMap<SchemaNode, number>;

export function instanceCosts(root: PublishedSchema): InstanceCosts {
  const nodes = reachableNodes(root);
  const costs = new Map<SchemaNode, number>(nodes.map((node) => [node, Infinity]));
  const costOf = (node: SchemaNode) => costs.get(node) ?? Infinity;
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of nodes) {
      const cost = nodeCost(node, root, costOf);
      if (cost < costOf(node)) {
        costs.set(node, cost);
        changed = true;
      }
    }
  }
  return costs;
}

function nodeCost(node: SchemaNode, root: PublishedSchema, costOf: (node: SchemaNode) => number): number {
  if (typeof node === 'boolean') return node ? 1 : Infinity;
  if (typeof node.$ref === 'string') return 1 + costOf(resolveRef(root, node.$ref));
  if ('const' in node || Array.isArray(node.enum)) return 1;
  const alternatives = alternativesOf(node);
  if (alternatives !== undefined) return 1 + Math.min(...alternatives.map(costOf));
  return 1 + Math.min(...typesOf(node).map((type) => typeCost(node, type, costOf)));
}

function typeCost(node: PublishedSchema, type: string, costOf: (node: SchemaNode) => number): number {
  if (type === 'array') {
    let cost = 0;
    for (let i = 0; i < ((node.minItems as number | undefined) ?? 0); i++) cost += costOf(itemSchemaAt(node, i));
    return cost;
  }
  if (type !== 'object') return 0;
  const properties = propertiesOf(node);
  const extra = (node.additionalProperties as SchemaNode | undefined) ?? true;
  return requiredOf(node).reduce((sum, key) => sum + costOf(properties[key] ?? extra), 0);
}

/** Every node below the root that a value can reach, each once, refs followed. */
function reachableNodes(root: PublishedSchema): SchemaNode[] {
  const seen = new Set<SchemaNode>();
  const pending: SchemaNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (typeof node === 'boolean') continue;
    if (typeof node.$ref === 'string') pending.push(resolveRef(root, node.$ref));
    pending.push(...childrenOf(node));
  }
  return [...seen];
}

const SINGLE = ['items', 'contains', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else'];
const LISTS = ['prefixItems', 'anyOf', 'oneOf'];
const MAPS = ['properties', 'patternProperties'];

/** The subschemas directly inside a node. */
function childrenOf(node: PublishedSchema): SchemaNode[] {
  const children: SchemaNode[] = [];
  for (const key of SINGLE) if (isSchema(node[key])) children.push(node[key] as SchemaNode);
  for (const key of LISTS) if (Array.isArray(node[key])) children.push(...(node[key] as SchemaNode[]));
  for (const key of MAPS)
    if (typeof node[key] === 'object' && node[key] !== null)
      children.push(...Object.values(node[key] as Record<string, SchemaNode>));
  return children;
}

function isSchema(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));
}
