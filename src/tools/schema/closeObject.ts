import { isPlainObject } from '../../json/jsonValue.js';

/**
 * `additionalProperties: false` on an object schema that declares properties and says nothing about others (the
 * binder refuses unknown arguments there, so the model is told so). Not on a union: its alternatives are closed
 * one by one.
 */
export function closeObject(schema: Record<string, unknown>): Record<string, unknown> {
  const declares = isPlainObject(schema.properties) || isPlainObject(schema.patternProperties);
  if (declares && !('additionalProperties' in schema) && !('anyOf' in schema) && !('oneOf' in schema))
    schema.additionalProperties = false;
  return schema;
}
