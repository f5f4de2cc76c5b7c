/**
 * OpenAPI documents whose `$ref`s multiply when followed, and a count of what following them gives,
 * written here apart from legate's own (test/openapi/openApiRefBudget*.test.ts).
 */

const BASE = 'https://fan.example';

/**
 * The shape an adversarial review sent (issue 31): schema `A{n}` has `fan` properties, each a `$ref` to
 * `A{n+1}`, `levels` deep, so `A0` expands to fan^levels copies of the last one in about 2 KB. `POST /fan`
 * takes `A0` as its body; `GET /ok` is an unrelated operation that uses none of it.
 */
export function fanOutSpec(levels: number, fan = 3, version = '3.1.0'): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i <= levels; i++)
    schemas[`A${i}`] =
      i === levels
        ? { type: 'string' }
        : {
            type: 'object',
            properties: Object.fromEntries(
              Array.from({ length: fan }, (_, k) => [`p${k}`, { $ref: `#/components/schemas/A${i + 1}` }]),
            ),
          };
  return graphSpec(schemas, 'A0', version);
}

/** A document with `GET /ok` (no input) and `POST /graph` (its body a `$ref` to `root`), over `schemas`. */
export function graphSpec(schemas: Record<string, unknown>, root: string, version = '3.1.0'): Record<string, unknown> {
  return {
    openapi: version,
    info: { title: 'Graph', version: '1' },
    servers: [{ url: BASE }],
    paths: {
      '/ok': { get: { operationId: 'ok', responses: { 200: { description: 'ok' } } } },
      '/graph': {
        post: {
          operationId: 'graph',
          requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${root}` } } } },
          responses: { 200: { description: 'ok' } },
        },
      },
    },
    components: { schemas },
  };
}

class OverCap extends Error {}

/**
 * The JSON values (objects, arrays, strings, numbers, booleans, nulls) of `document` once each local `$ref`
 * (`#/...`) is replaced by a copy of its target, except a `$ref` whose target leads into a cycle of references,
 * which counts one: the document the parser's validation walks. Naive on purpose: it walks every copy, one
 * by one, and stops at `cap + 1`.
 */
export function referenceSize(document: Record<string, unknown>, cap: number): number {
  const target = (ref: string): unknown =>
    (ref === '#' ? [] : ref.slice(2).split('/'))
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
  const isRef = (value: unknown): value is { $ref: string } =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $ref?: unknown }).$ref === 'string' &&
    ((value as { $ref: string }).$ref === '#' || (value as { $ref: string }).$ref.startsWith('#/'));
  const successors = (value: unknown): unknown[] =>
    isRef(value) ? [target(value.$ref)] : typeof value === 'object' && value !== null ? Object.values(value) : [];
  const leads = new Map<unknown, boolean>();
  const onPath = new Set<unknown>();
  const leadsIntoCycle = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    if (onPath.has(value)) return true;
    const known = leads.get(value);
    if (known !== undefined) return known;
    onPath.add(value);
    const found = successors(value).some(leadsIntoCycle);
    onPath.delete(value);
    leads.set(value, found);
    return found;
  };
  let count = 0;
  const walk = (value: unknown): void => {
    if (isRef(value)) {
      const to = target(value.$ref);
      if (typeof to === 'object' && to !== null && !leadsIntoCycle(to)) {
        walk(to);
        return;
      }
    }
    if (++count > cap) throw new OverCap();
    if (isRef(value) || typeof value !== 'object' || value === null) return;
    for (const member of Object.values(value)) walk(member);
  };
  try {
    walk(document);
    return count;
  } catch (error) {
    if (error instanceof OverCap) return cap + 1;
    throw error;
  }
}

/** The JSON values of a schema as it is sent (shared parts counted each time, as JSON text repeats them). */
export function jsonValueCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let count = 1;
  for (const member of Object.values(value)) count += jsonValueCount(member);
  return count;
}
