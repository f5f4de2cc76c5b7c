import { isPlainObject } from '../../json/jsonValue.js';
import { KEYWORDS, type JsonType } from './schemaKeywords.js';
import { parseLocalRef, valueAtPointer } from './schemaPointer.js';

type Schema = Record<string, unknown>;

/**
 * Facts about a node of a published (normalised) schema, read the same way by the binder, its
 * messages and the fuzzers: what a `$ref` points to, which types a node takes, whether it
 * takes null, and which property, if any, tells a union's alternatives apart.
 */

/** The node a `$ref` leads to (following chains of bare refs), or the node itself. */
export function resolveRef(root: Schema, node: unknown, seen = new Set<string>()): unknown {
  if (!isPlainObject(node) || typeof node.$ref !== 'string' || seen.has(node.$ref)) return node;
  const local = parseLocalRef(node.$ref);
  if (local?.kind !== 'pointer') return node;
  seen.add(node.$ref);
  return resolveRef(root, valueAtPointer(root, local.tokens), seen);
}

/** The node's declared types, or undefined when it declares none (any type). */
export function typesOf(node: Schema): JsonType[] | undefined {
  const type = node.type;
  if (type === undefined) return undefined;
  return (Array.isArray(type) ? type : [type]) as JsonType[];
}

/** `anyOf: [T, { type: 'null' }]` (either order, anyOf or oneOf): T, the way pydantic writes Optional[T]. */
export function nullableAlternative(node: Schema): unknown {
  const alternatives = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (alternatives?.length !== 2) return undefined;
  const isNull = (a: unknown) =>
    isPlainObject(a) &&
    a.type === 'null' &&
    Object.keys(a).every((k) => k === 'type' || KEYWORDS[k]?.role !== 'checked');
  if (isNull(alternatives[1]) && !isNull(alternatives[0])) return alternatives[0];
  if (isNull(alternatives[0]) && !isNull(alternatives[1])) return alternatives[1];
  return undefined;
}

/** Whether null is a value this node accepts at its own level (not counting nested members). */
export function acceptsNull(root: Schema, node: unknown, depth = 0): boolean {
  const target = resolveRef(root, node);
  if (target === true) return true;
  if (!isPlainObject(target) || depth > 32) return false;
  if ('const' in target) return target.const === null;
  if (Array.isArray(target.enum)) return target.enum.includes(null);
  if (Array.isArray(target.anyOf)) return target.anyOf.some((a) => acceptsNull(root, a, depth + 1));
  // oneOf takes null only where exactly one alternative does.
  if (Array.isArray(target.oneOf)) return target.oneOf.filter((a) => acceptsNull(root, a, depth + 1)).length === 1;
  if ('not' in target || 'if' in target) return false; // conservative: null counts as absent
  const types = typesOf(target);
  return types === undefined || types.includes('null');
}

interface Discriminator {
  property: string;
  /** Each discriminating value, with the index of the alternative it selects. */
  values: Map<string | number | boolean, number>;
}

/**
 * The property that tells a union's object alternatives apart, if there is one: required in every
 * alternative, a `const` or `enum` of scalars there, no value shared by two alternatives.
 */
export function discriminatorOf(root: Schema, alternatives: readonly unknown[]): Discriminator | undefined {
  const objects = alternatives.map((a) => resolveRef(root, a));
  if (objects.length < 2 || !objects.every((o) => isPlainObject(o) && isPlainObject(o.properties))) return undefined;
  const first = objects[0] as Schema;
  for (const property of Object.keys(first.properties as Schema)) {
    const values = new Map<string | number | boolean, number>();
    const fits = objects.every((object, index) => {
      const o = object as Schema;
      if (!Array.isArray(o.required) || !o.required.includes(property)) return false;
      const own = resolveRef(root, (o.properties as Schema)[property]);
      if (!isPlainObject(own)) return false;
      const allowed = 'const' in own ? [own.const] : Array.isArray(own.enum) ? own.enum : undefined;
      if (allowed === undefined || allowed.length === 0) return false;
      for (const value of allowed) {
        if (!['string', 'number', 'boolean'].includes(typeof value) || values.has(value as string)) return false;
        values.set(value as string, index);
      }
      return true;
    });
    if (fits) return { property, values };
  }
  return undefined;
}
