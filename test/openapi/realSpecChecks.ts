import { expect } from 'vitest';
import { defineTool, type AnyTool } from '../../src/index.js';

/** What the tests of real documents read of them apart from openApiTools, and the checks every tool set passes. */

export const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';
const METHODS: Method[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export interface DocumentOperation {
  operation: string;
  operationId: string | undefined;
  tags: string[];
  requiredHeaders: string[];
  /** Optional header and cookie parameters, as `header X-Trace`. */
  optionalHeaders: string[];
  bodyTypes: string[];
  /** The body is optional, each of its media types' schemas an object that holds nothing (no properties, no others). */
  bodyHoldsNothing: boolean;
}

/** Every operation of a JSON document, read here apart from openApiTools (local $refs followed by hand). */
export function operationsOf(document: Record<string, unknown>): DocumentOperation[] {
  const resolve = (value: unknown): Record<string, unknown> => {
    const ref = (value as { $ref?: string }).$ref;
    if (ref === undefined) return value as Record<string, unknown>;
    return ref
      .slice(2)
      .split('/')
      .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, document);
  };
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (op === undefined) continue;
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(
        resolve,
      );
      const body = op.requestBody === undefined ? undefined : resolve(op.requestBody);
      operations.push({
        operation: `${method.toUpperCase()} ${path}`,
        operationId: op.operationId as string | undefined,
        tags: (op.tags as string[]) ?? [],
        requiredHeaders: parameters
          .filter((p) => (p.in === 'header' || p.in === 'cookie') && p.required === true)
          .map((p) => p.name as string),
        optionalHeaders: parameters
          .filter((p) => (p.in === 'header' || p.in === 'cookie') && p.required !== true)
          .map((p) => `${p.in as string} ${p.name as string}`),
        bodyTypes: body === undefined ? [] : Object.keys(body.content as object),
        bodyHoldsNothing:
          body !== undefined &&
          body.required !== true &&
          Object.values(body.content as Record<string, { schema?: unknown }>).every((media) => {
            const schema = media.schema === undefined ? undefined : resolve(media.schema);
            return (
              schema?.additionalProperties === false && Object.keys((schema.properties as object) ?? {}).length === 0
            );
          }),
      });
    }
  }
  return operations;
}

/** Each tool passes legate's own declaration checks with the schema it was given, and holds no $ref. */
export function expectWellFormed(tools: readonly AnyTool[]): void {
  const names = tools.map((tool) => tool.name);
  expect(new Set(names).size).toBe(names.length);
  for (const tool of tools) {
    expect(() =>
      defineTool({ name: tool.name, description: tool.description, input: tool.inputSchema, run: () => '' }),
    ).not.toThrow();
    expect(JSON.stringify(tool.inputSchema)).not.toContain('"$ref"');
    expect(tool.inputSchema.type).toBe('object');
  }
}

export const tool = (tools: readonly AnyTool[], name: string): AnyTool => {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(', ')}`);
  return found;
};
