import { describeValue } from '../../json/describeValue.js';
import type { SchemaProblems } from './schemaProblems.js';
import { takingNull } from './takingNull.js';

type Schema = Record<string, unknown>;

/**
 * Draft-04, draft-07 and OpenAPI 3.0 spellings in their 2020-12 form: `exclusiveMinimum: true`
 * as the bound itself, `items: [...]` as `prefixItems`, `nullable: true` as a type that takes
 * null. `$schema` and `$anchor` are dropped (anchors are resolved to pointers). A copy: `node` is
 * left as it was.
 */
export function rewriteSpellings(node: Schema, path: string, problems: SchemaProblems): Schema {
  const schema: Schema = {};
  for (const [keyword, value] of Object.entries(node))
    if (keyword !== '$schema' && keyword !== '$anchor') schema[keyword] = value;
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else {
      delete schema[exclusive];
    }
  }
  if (Array.isArray(schema.items)) {
    schema.prefixItems = schema.items;
    if ('additionalItems' in schema) schema.items = schema.additionalItems;
    else delete schema.items;
  }
  delete schema.additionalItems;
  if ('nullable' in schema) {
    const nullable = schema.nullable;
    delete schema.nullable;
    if (nullable === true) return takingNull(schema);
    if (nullable !== false)
      problems.add(
        `${path}.nullable`,
        'invalid_schema',
        `'nullable' must be true or false, but it was ${describeValue(nullable)}.`,
      );
  }
  return schema;
}
