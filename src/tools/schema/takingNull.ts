import { KEYWORDS } from './schemaKeywords.js';

type Schema = Record<string, unknown>;

/** Keywords that are neither checks on this value nor annotations of it. */
const NOT_CHECKS = new Set(['$defs', 'definitions', 'default']);

/**
 * A schema that takes what `schema` takes, and null: `type: 'string'` becomes
 * `['string', 'null']` (with null joining an `enum` or `const`); a schema without a type is
 * wrapped as `anyOf: [<its checks>, { type: 'null' }]`, its annotations kept outside.
 * OpenAPI 3.0's `nullable: true` and pydantic's `anyOf: [T, { type: 'null' }]` both mean this.
 */
export function takingNull(schema: Schema): Schema {
  if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
    const { const: only, enum: allowed, ...rest } = schema;
    const result: Schema = { ...rest, type: types.includes('null') ? types : [...types, 'null'] };
    const values = 'const' in schema ? [only] : Array.isArray(allowed) ? allowed : undefined;
    if (values !== undefined) result.enum = values.includes(null) ? values : [...values, null];
    return result;
  }
  const annotations: Schema = {};
  const checks: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (KEYWORDS[keyword]?.role === 'checked' && !NOT_CHECKS.has(keyword)) checks[keyword] = value;
    else annotations[keyword] = value;
  }
  return { ...annotations, anyOf: [checks, { type: 'null' }] };
}
