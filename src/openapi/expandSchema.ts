import { isPlainObject } from '../json/jsonValue.js';

/** A `$ref` the parser left unresolved: one to another file or a URL, which legate never fetches. */
export class UnresolvedRef extends Error {
  constructor(readonly ref: string) {
    super(ref);
  }
}

/** An expansion past {@link MAX_EXPANDED_NODES}: shared types nested so often that the copy would not end. */
export class ExpansionTooLarge extends Error {}

/**
 * Schemas one operation's input may expand to. Shared types used several times at each of many
 * levels multiply (three uses over 30 levels is 3^30 copies): past this, the operation is skipped.
 */
export const MAX_EXPANDED_NODES = 20_000;

/** What a type that contains itself becomes where it recurs. */
export const RECURSION = Object.freeze({
  type: 'object',
  description: 'Recursive: the same type as an enclosing value, not expanded here (any object).',
});

/** OpenAPI's own keywords beside JSON Schema's: documentation for other tools, nothing the binder checks. */
const DROPPED = new Set(['discriminator', 'xml', 'externalDocs']);
/** Keywords whose values are data, never schemas: copied as they are. */
const VALUES = new Set(['enum', 'const', 'default', 'example', 'examples', 'required']);

/**
 * A self-contained copy of a dereferenced schema: shared parts copied where they are used, a
 * schema met again inside itself replaced by an open object ({@link RECURSION}), OpenAPI-only
 * keywords and `x-` extensions dropped. Throws {@link UnresolvedRef} at a `$ref` still in place, and
 * {@link ExpansionTooLarge} past {@link MAX_EXPANDED_NODES} schemas.
 */
export function expandSchema(schema: unknown): unknown {
  return expand(schema, new Set(), { nodes: 0 });
}

function expand(schema: unknown, within: Set<object>, count: { nodes: number }): unknown {
  if (Array.isArray(schema)) return schema.map((item) => expand(item, within, count));
  if (!isPlainObject(schema)) return schema;
  if (within.has(schema)) return { ...RECURSION };
  if (typeof schema.$ref === 'string') throw new UnresolvedRef(schema.$ref);
  if (++count.nodes > MAX_EXPANDED_NODES) throw new ExpansionTooLarge();
  within.add(schema);
  try {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      if (VALUES.has(key)) copy[key] = structuredClone(value);
      else if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions')
        copy[key] = isPlainObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, expand(sub, within, count)]))
          : value;
      else copy[key] = expand(value, within, count);
    }
    return copy;
  } finally {
    within.delete(schema);
  }
}
