import { parse as parseYaml } from 'yaml';
import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import { loadOpenApiParser } from './loadOpenApiParser.js';
import { OpenApiError } from './OpenApiError.js';

/** An OpenAPI document, validated and dereferenced: local `$ref`s replaced by their targets (a cycle stays one). */
export interface OpenApiDocument {
  /** `3.0.3`, `3.1.0`, ... */
  readonly version: string;
  readonly title: string | undefined;
  /** The dereferenced document; a remote `$ref` is left in place, as `{ $ref }`. */
  readonly api: Record<string, unknown>;
  /** The first server's URL, when it is an absolute http(s) URL. */
  readonly serverUrl: string | undefined;
}

/**
 * Reads an OpenAPI 3.0 or 3.1 document given as an object, JSON text or YAML text; validates and
 * dereferences it with @readme/openapi-parser. Nothing is fetched or read from disk: the parser is
 * given an object (never a path) with external resolution off, so a `$ref` to a URL or a file is
 * left unresolved, and each operation that needs one is skipped and reported by the caller.
 */
export async function readDocument(spec: unknown): Promise<OpenApiDocument> {
  const raw = documentObject(spec);
  const version = checkVersion(raw);
  const parser = await loadOpenApiParser();
  const options = { resolve: { external: false }, dereference: { circular: true as const } };
  let result: Awaited<ReturnType<typeof parser.validate>>;
  try {
    // Both calls change what they are given: each gets a copy of its own, the caller's object is never touched.
    result = await parser.validate(structuredClone(raw) as never, options);
  } catch (error) {
    throw new OpenApiError('openapi_invalid', `The OpenAPI document is not valid: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (!result.valid)
    throw new OpenApiError(
      'openapi_invalid',
      `The OpenAPI document is not valid. Fix it (or ask its authors to), then build the tools again.\n` +
        parser.compileErrors(result),
    );
  const api = (await parser.dereference(structuredClone(raw) as never, options)) as unknown as Record<string, unknown>;
  const info = isPlainObject(api.info) ? api.info : {};
  return {
    version,
    title: typeof info.title === 'string' ? info.title : undefined,
    api,
    serverUrl: serverUrlOf(api),
  };
}

function documentObject(spec: unknown): Record<string, unknown> {
  if (isPlainObject(spec)) return spec;
  if (typeof spec !== 'string')
    throw new OpenApiError(
      'openapi_unreadable',
      `openApiTools needs an OpenAPI document: an object, JSON text or YAML text, but it was ${describeValue(spec)}.`,
    );
  let value: unknown;
  try {
    value = /^\s*[{[]/.test(spec) ? JSON.parse(spec) : parseYaml(spec, { maxAliasCount: 10_000 });
  } catch (error) {
    throw new OpenApiError(
      'openapi_unreadable',
      `The OpenAPI document is neither JSON nor YAML that can be read: ${messageOf(error)}`,
      { cause: error },
    );
  }
  if (!isPlainObject(value))
    throw new OpenApiError(
      'openapi_unreadable',
      `The OpenAPI document's text holds ${describeValue(value)}, not an object with 'openapi', 'info' and 'paths'.`,
    );
  return value;
}

function checkVersion(raw: Record<string, unknown>): string {
  if (raw.swagger !== undefined)
    throw new OpenApiError(
      'openapi_unsupported_version',
      `The document is Swagger ${String(raw.swagger)} (its 'swagger' field); openApiTools reads OpenAPI 3.0 and ` +
        `3.1 only. Convert it first, e.g. 'npx swagger2openapi swagger.json -o openapi.json', and give that.`,
    );
  const version = raw.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version))
    throw new OpenApiError(
      'openapi_unsupported_version',
      `openApiTools reads OpenAPI 3.0 and 3.1 documents, whose 'openapi' field is '3.0.x' or '3.1.x', but this ` +
        `document's was ${describeValue(version)}.`,
    );
  return version;
}

function serverUrlOf(api: Record<string, unknown>): string | undefined {
  const first = Array.isArray(api.servers) ? api.servers[0] : undefined;
  const url = isPlainObject(first) ? first.url : undefined;
  return typeof url === 'string' && /^https?:\/\//i.test(url) && !url.includes('{') ? url : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
