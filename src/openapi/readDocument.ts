import { isPlainObject } from '../json/jsonValue.js';
import { expandedSize } from './expandedSize.js';
import { loadOpenApiParser, type OpenApiParser } from './loadOpenApiParser.js';
import { OpenApiError } from './OpenApiError.js';
import { messageOf } from './rawDocument.js';
import { tooLarge } from './tooLarge.js';

/** The most JSON values a document (the part read) may expand to with its `$ref`s followed, unless said otherwise. */
export const DEFAULT_MAX_DOCUMENT_NODES = 1_000_000;

/** An OpenAPI document, validated and dereferenced: local `$ref`s replaced by their targets (a cycle stays one). */
interface OpenApiDocument {
  readonly title: string | undefined;
  /** The dereferenced document; a remote `$ref` is left in place, as `{ $ref }`. */
  readonly api: Record<string, unknown>;
  /** The first server's URL, when it is an absolute http(s) URL. */
  readonly serverUrl: string | undefined;
}

const OPTIONS = { resolve: { external: false } } as const;

/**
 * Dereferences and validates a document (or the part of one that was selected) with
 * @readme/openapi-parser. Nothing is fetched or read from disk: the parser is given an object (never a
 * path) with external resolution off, so a `$ref` to a URL or a file is left unresolved, and each
 * operation that needs one is skipped and reported by the caller.
 *
 * The parser's validation walks the document as a tree, each `$ref` followed, so a few kilobytes of
 * `$ref`s that branch at every level take it hours. Dereferencing first takes time in the size of
 * the document (each target is shared where it is used); its size as a tree is counted on that
 * ({@link expandedSize}), and a document past `maxNodes` is refused before it is validated. `whole`,
 * when `part` is a selected part of it, is read instead if the parser cannot follow a `$ref` of the part.
 */
export async function readDocument(
  part: Record<string, unknown>,
  maxNodes: number,
  whole: Record<string, unknown> = part,
): Promise<OpenApiDocument> {
  const parser = await loadOpenApiParser();
  const references = new WeakMap<object, Set<string>>();
  const noted = (parent: object | undefined, key: string | undefined) => {
    if (parent === undefined || key === undefined) return;
    const keys = references.get(parent) ?? new Set<string>();
    references.set(parent, keys.add(key));
  };
  let api: Record<string, unknown>;
  try {
    // Each call changes what it is given: each gets a copy of its own, the caller's object is never touched.
    api = (await parser.dereference(structuredClone(part) as never, {
      ...OPTIONS,
      dereference: { circular: true, onDereference: (_path, _value, parent, key) => noted(parent, key) },
    })) as unknown as Record<string, unknown>;
  } catch (error) {
    if (part !== whole && error instanceof parser.MissingPointerError) return readDocument(whole, maxNodes);
    throw invalid(parser, error);
  }
  const sizes = expandedSize(api, (parent, key) => references.get(parent)?.has(key) === true, maxNodes);
  if (sizes.total > maxNodes) throw tooLarge(api, sizes, maxNodes);
  let result: Awaited<ReturnType<OpenApiParser['validate']>>;
  try {
    result = await parser.validate(structuredClone(part) as never, {
      ...OPTIONS,
      dereference: { circular: true },
    });
  } catch (error) {
    throw invalid(parser, error);
  }
  if (!result.valid)
    throw new OpenApiError(
      'openapi_invalid',
      `The OpenAPI document is not valid. Fix it (or ask its authors to), then build the tools again.\n` +
        parser.compileErrors(result),
    );
  const info = isPlainObject(api.info) ? api.info : {};
  return {
    title: typeof info.title === 'string' ? info.title : undefined,
    api,
    serverUrl: serverUrlOf(api),
  };
}

/** The parser's refusal, worded as its validation words it (a `$ref` to nothing is a finding, not a failure). */
function invalid(parser: OpenApiParser, error: unknown): OpenApiError {
  if (error instanceof parser.MissingPointerError)
    return new OpenApiError(
      'openapi_invalid',
      `The OpenAPI document is not valid. Fix it (or ask its authors to), then build the tools again.\n` +
        parser.compileErrors({
          valid: false,
          errors: [{ message: error.message }],
          warnings: [],
          additionalErrors: 0,
          specification: null,
        }),
      { cause: error },
    );
  return new OpenApiError('openapi_invalid', `The OpenAPI document is not valid: ${messageOf(error)}`, {
    cause: error,
  });
}

function serverUrlOf(api: Record<string, unknown>): string | undefined {
  const first = Array.isArray(api.servers) ? api.servers[0] : undefined;
  const url = isPlainObject(first) ? first.url : undefined;
  return typeof url === 'string' && /^https?:\/\//i.test(url) && !url.includes('{') ? url : undefined;
}
