import { isPlainObject } from '../json/jsonValue.js';

/** The HTTP methods an OpenAPI path item may hold, in the order the document lists them. */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof METHODS)[number];

/** Methods that only read: their tools are untrusted (what they return was written by others), not privileged. */
export const READ_METHODS: ReadonlySet<HttpMethod> = new Set(['get', 'head', 'options']);

/** One operation of the document. */
export interface Operation {
  readonly method: HttpMethod;
  readonly path: string;
  /** `GET /pets/{petId}`: how the operation is named in reports. */
  readonly label: string;
  readonly operationId: string | undefined;
  readonly tags: readonly string[];
  readonly operation: Record<string, unknown>;
  /** Path-level parameters and the operation's, the operation's winning for the same name and location. */
  readonly parameters: readonly Record<string, unknown>[];
}

/** How an operation is named in reports and selected when it has no operationId: `GET /pets/{petId}`. */
export const labelOf = (method: HttpMethod, path: string): string => `${method.toUpperCase()} ${path}`;

/**
 * Every operation of a document, path by path, in the document's order. `pathItem` reads a path's
 * item (the document given, before dereferencing, follows a path item's own `$ref`).
 */
export function operationsOf(
  api: Record<string, unknown>,
  pathItem: (item: unknown) => unknown = (item) => item,
): Operation[] {
  const paths = isPlainObject(api.paths) ? api.paths : {};
  const found: Operation[] = [];
  for (const [path, given] of Object.entries(paths)) {
    const item = pathItem(given);
    if (!isPlainObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isPlainObject(operation)) continue;
      const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((t) => typeof t === 'string') : [];
      found.push({
        method,
        path,
        label: labelOf(method, path),
        operationId,
        tags,
        operation,
        parameters: mergedParameters(item.parameters, operation.parameters),
      });
    }
  }
  return found;
}

function mergedParameters(shared: unknown, own: unknown): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const list of [shared, own])
    for (const parameter of Array.isArray(list) ? list : [])
      if (isPlainObject(parameter)) byKey.set(`${String(parameter.in)} ${String(parameter.name)}`, parameter);
  return [...byKey.values()];
}
