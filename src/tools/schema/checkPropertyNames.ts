import { quoteValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { isAllowedPropertyName, PROPERTY_NAME_PATTERN, PROPERTY_NAME_RULE } from './propertyNameRule.js';
import type { PublishedSchema } from './publishedSchema.js';
import { renameProperties, safePropertyNames } from './safePropertyNames.js';
import { SchemaProblems } from './schemaProblems.js';

/** A published input schema whose top-level property names the Messages API accepts. */
interface NamedSchema {
  readonly schema: PublishedSchema;
  /** For a schema renamed: each safe name the model is shown, with the name as declared. */
  readonly wireNames?: Readonly<Record<string, string>>;
}

/**
 * Holds a tool's published input schema to the Messages API's rule for the property names at its
 * top level (the only ones the API checks): a name that breaks it is refused, with its path and a
 * safe name to use instead, every such name in one error (`invalid_property_name`); with `rename`,
 * such names are shown to the model under safe names instead (see safePropertyNames.ts), and the
 * names as declared are returned by safe name.
 */
export function checkPropertyNames(tool: string, schema: PublishedSchema, rename: boolean): NamedSchema {
  const names = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (names.every(isAllowedPropertyName)) return { schema };
  const safe = safePropertyNames(names);
  const problems = new SchemaProblems(tool);
  if (!rename) {
    for (const [name, suggested] of safe)
      problems.add(
        `input.properties.${name}`,
        'invalid_property_name',
        `the Messages API refuses every request with a tool whose top-level property name is not ` +
          `${PROPERTY_NAME_RULE} (${PROPERTY_NAME_PATTERN.source}), and this one is ${quoteValue(name)}. Rename it, ` +
          `e.g. to '${suggested}'; a JSON Schema input may instead set renameUnsafeProperties: true, to show the ` +
          `model '${suggested}' while run receives ${quoteValue(name)}.`,
      );
    problems.throwIfAny();
  }
  const renamed = renameProperties(schema, safe);
  for (const path of renamed.namesTested)
    problems.add(
      path,
      'unsupported_schema',
      `it tests the names of the input's properties, and renameUnsafeProperties shows the model other names ` +
        `for ${[...safe.keys()].map((name) => quoteValue(name)).join(', ')}; move the rule into those properties' ` +
        'schemas, or rename them in the declaration.',
    );
  problems.throwIfAny();
  return { schema: renamed.schema, wireNames: Object.fromEntries([...safe].map(([wire, shown]) => [shown, wire])) };
}
