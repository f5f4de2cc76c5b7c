import { isPlainObject } from '../json/jsonValue.js';

/** A `$ref` the parser left unresolved: one to another file or a URL, which legate never fetches. */
export class UnresolvedRef extends Error {
  constructor(readonly ref: string) {
    super(ref);
  }
}

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
 * keywords and `x-` extensions dropped. Throws {@link UnresolvedRef} at a `$ref` still in place.
 */
export function expandSchema(schema: unknown, within: Set<object> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => expandSchema(item, within));
  if (!isPlainObject(schema)) return schema;
  if (within.has(schema)) return { ...RECURSION };
  if (typeof schema.$ref === 'string') throw new UnresolvedRef(schema.$ref);
  within.add(schema);
  try {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      if (VALUES.has(key)) copy[key] = structuredClone(value);
      else if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions')
        copy[key] = isPlainObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, expandSchema(sub, within)]))
          : value;
      else copy[key] = expandSchema(value, within);
    }
    return copy;
  } finally {
    within.delete(schema);
  }
}
