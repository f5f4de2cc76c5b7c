/** True for a non-null, non-array object: the only shape a set of named arguments can take. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type name of a value, as a model would understand it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    case 'undefined':
      return 'undefined';
    default:
      // bigint, symbol, function: never JSON, but a scripted model can send anything.
      return typeof value;
  }
}
