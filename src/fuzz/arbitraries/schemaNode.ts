import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import type { JsonType } from '../../tools/schema/schemaKeywords.js';

export type { JsonType };

/** A node of a published schema: an object, or a boolean schema (`true` takes anything, `false` nothing). */
export type SchemaNode = PublishedSchema | boolean;

/** The seven JSON types (their home is the keyword table), in the order the arbitraries try them. */
const GENERATION_ORDER: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** The types a node allows by its `type` keyword: all seven when it has none. */
export function typesOf(node: PublishedSchema): readonly JsonType[] {
  if (typeof node.type === 'string') return [node.type as JsonType];
  if (Array.isArray(node.type)) return node.type as JsonType[];
  return GENERATION_ORDER;
}

/** The declared properties of an object node, in declaration order. */
export function propertiesOf(node: PublishedSchema): Record<string, SchemaNode> {
  return (node.properties as Record<string, SchemaNode> | undefined) ?? {};
}

/** The property names an object node requires. */
export function requiredOf(node: PublishedSchema): string[] {
  return (node.required as string[] | undefined) ?? [];
}

/** The alternatives of a union node (`anyOf` or `oneOf`), or undefined when it is not one. */
export function alternativesOf(node: PublishedSchema): SchemaNode[] | undefined {
  return (node.anyOf as SchemaNode[] | undefined) ?? (node.oneOf as SchemaNode[] | undefined);
}

/** The schema of an array's item at `index`: `prefixItems` first, then `items` (absent: anything). */
export function itemSchemaAt(node: PublishedSchema, index: number): SchemaNode {
  const prefix = (node.prefixItems as SchemaNode[] | undefined) ?? [];
  if (index < prefix.length) return prefix[index]!;
  return (node.items as SchemaNode | undefined) ?? true;
}

/** How many items an array node may hold at most, by `maxItems` and by a closed tuple (`items: false`). */
export function maxItemsOf(node: PublishedSchema): number {
  const prefix = (node.prefixItems as SchemaNode[] | undefined) ?? [];
  const closed = node.items === false ? prefix.length : Infinity;
  return Math.min((node.maxItems as number | undefined) ?? Infinity, closed);
}
