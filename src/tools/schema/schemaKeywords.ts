/**
 * Every JSON Schema keyword legate knows, and what it does with it: one table, read by the
 * normaliser (what to refuse, what applies to which type) and by the docs test.
 * A keyword not in this table is an annotation: passed through to the model, never checked.
 */
type KeywordRole =
  /** Checked by the binder; `types` lists the JSON types it applies to (none: any value). */
  | { role: 'checked'; types?: readonly JsonType[] }
  /** Would change validation, and the binder does not check it: refused at definition. */
  | { role: 'refused'; advice: string }
  /** Changes nothing the binder checks: passed through. */
  | { role: 'annotation' };

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

export const JSON_TYPES: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];

const NUMERIC: readonly JsonType[] = ['number', 'integer'];

export const KEYWORDS: Readonly<Record<string, KeywordRole>> = {
  type: { role: 'checked' },
  enum: { role: 'checked' },
  const: { role: 'checked' },
  multipleOf: { role: 'checked', types: NUMERIC },
  maximum: { role: 'checked', types: NUMERIC },
  exclusiveMaximum: { role: 'checked', types: NUMERIC },
  minimum: { role: 'checked', types: NUMERIC },
  exclusiveMinimum: { role: 'checked', types: NUMERIC },
  maxLength: { role: 'checked', types: ['string'] },
  minLength: { role: 'checked', types: ['string'] },
  pattern: { role: 'checked', types: ['string'] },
  // Checked on strings; on another type (OpenAPI's `int64`) an annotation, as JSON Schema has it.
  format: { role: 'checked' },
  items: { role: 'checked', types: ['array'] },
  prefixItems: { role: 'checked', types: ['array'] },
  additionalItems: { role: 'checked', types: ['array'] },
  minItems: { role: 'checked', types: ['array'] },
  maxItems: { role: 'checked', types: ['array'] },
  uniqueItems: { role: 'checked', types: ['array'] },
  contains: { role: 'checked', types: ['array'] },
  minContains: { role: 'checked', types: ['array'] },
  maxContains: { role: 'checked', types: ['array'] },
  properties: { role: 'checked', types: ['object'] },
  required: { role: 'checked', types: ['object'] },
  additionalProperties: { role: 'checked', types: ['object'] },
  patternProperties: { role: 'checked', types: ['object'] },
  propertyNames: { role: 'checked', types: ['object'] },
  minProperties: { role: 'checked', types: ['object'] },
  maxProperties: { role: 'checked', types: ['object'] },
  dependentRequired: { role: 'checked', types: ['object'] },
  anyOf: { role: 'checked' },
  oneOf: { role: 'checked' },
  allOf: { role: 'checked' },
  not: { role: 'checked' },
  if: { role: 'checked' },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; this object is never awaited.
  then: { role: 'checked' },
  else: { role: 'checked' },
  $ref: { role: 'checked' },
  $defs: { role: 'checked' },
  definitions: { role: 'checked' },
  default: { role: 'checked' },
  nullable: { role: 'checked' },
  unevaluatedProperties: {
    role: 'refused',
    advice: "declare the properties in one object (legate merges allOf parts) and use 'additionalProperties'",
  },
  unevaluatedItems: { role: 'refused', advice: "use 'items' after 'prefixItems' instead" },
  dependentSchemas: { role: 'refused', advice: "state the condition with 'if' and 'then' instead" },
  dependencies: {
    role: 'refused',
    advice: "write a list of names as 'dependentRequired', or a schema as 'if' and 'then'",
  },
  $dynamicRef: { role: 'refused', advice: "use '$ref' to a definition in '$defs'" },
  $recursiveRef: { role: 'refused', advice: "use '$ref' to a definition in '$defs'" },
  $dynamicAnchor: { role: 'refused', advice: "use '$anchor', or '$ref' to a definition in '$defs'" },
  $recursiveAnchor: { role: 'refused', advice: "use '$anchor', or '$ref' to a definition in '$defs'" },
};

/** Keywords that hold a schema, a list of schemas, or a map of schemas: where the normaliser descends. */
export const SUBSCHEMA_KEYWORDS = {
  single: [
    'items',
    'additionalItems',
    'additionalProperties',
    'propertyNames',
    'contains',
    'not',
    'if',
    'then',
    'else',
  ],
  list: ['prefixItems', 'anyOf', 'oneOf', 'allOf'],
  map: ['properties', 'patternProperties', '$defs', 'definitions'],
} as const;

/** Keywords that hold values, not schemas: never descended into, never rewritten. */
export const VALUE_KEYWORDS = new Set([
  'enum',
  'const',
  'default',
  'examples',
  'example',
  'required',
  'dependentRequired',
]);
