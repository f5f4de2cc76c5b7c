/** The oracle's keyword for the binder's reading of integers: within ±(2^53 - 1). */
export const SAFE_INTEGER_KEYWORD = 'x-legate-safe-integer';

/** Keywords whose value is a schema, or an array or map of schemas (2020-12, draft-07 and OpenAPI homes). */
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
];
const MANY = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * A copy of a schema in which every node whose `type` allows integers also requires an integer to
 * be a safe one (±(2^53 - 1)), as the binder does: its reading of `type: integer`. Every node is
 * visited: those under schema keywords and, through `$ref`, those anywhere a pointer leads
 * (`#/components/schemas/X`).
 */
export function withSafeIntegers(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(schema);
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || seen.has(node)) return;
    seen.add(node);
    const record = node as Record<string, unknown>;
    const types = Array.isArray(record.type) ? record.type : [record.type];
    if (types.includes('integer')) record[SAFE_INTEGER_KEYWORD] = true;
    for (const keyword of ONE) visit(record[keyword]);
    for (const keyword of MANY) if (Array.isArray(record[keyword])) for (const item of record[keyword]) visit(item);
    for (const keyword of MAP) {
      const map = record[keyword];
      if (typeof map === 'object' && map !== null) for (const item of Object.values(map)) visit(item);
    }
    if (typeof record.$ref === 'string' && record.$ref.startsWith('#')) visit(target(copy, record.$ref));
  };
  visit(copy);
  return copy;
}

function target(root: unknown, ref: string): unknown {
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment === '') return root;
  return fragment
    .slice(1)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) => (typeof node === 'object' && node !== null ? (node as never)[key] : undefined),
      root,
    );
}
