import { parse as parseYaml } from 'yaml';
import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import { OpenApiError } from './OpenApiError.js';

/** An OpenAPI 3.0 or 3.1 document as it was given, `$ref`s in place, checked to be JSON data of a version we read. */
interface RawDocument {
  readonly raw: Record<string, unknown>;
  /** `3.0.3`, `3.1.0`, ... */
  readonly version: string;
}

/** The document given as an object, JSON text or YAML text, before the parser sees it. */
export function rawDocument(spec: unknown): RawDocument {
  const raw = documentObject(spec);
  checkAcyclic(raw);
  return { raw, version: checkVersion(raw) };
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

/**
 * An OpenAPI document is JSON data, which cannot contain itself; YAML can (an alias inside its own anchor:
 * `a: &x { b: *x }`), and so can an object. Refused, so only `$ref`s make cycles, which are counted.
 */
function checkAcyclic(raw: Record<string, unknown>): void {
  const done = new Set<object>();
  const onPath = new Set<object>();
  const frames: { node: object; keys: string[]; next: number }[] = [{ node: raw, keys: Object.keys(raw), next: 0 }];
  onPath.add(raw);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next === frame.keys.length) {
      frames.pop();
      onPath.delete(frame.node);
      done.add(frame.node);
      continue;
    }
    const member = (frame.node as Record<string, unknown>)[frame.keys[frame.next++]!];
    if (typeof member !== 'object' || member === null || done.has(member)) continue;
    if (onPath.has(member)) {
      const at = frames.map((f) => f.keys[f.next - 1]!.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
      throw new OpenApiError(
        'openapi_unreadable',
        `The OpenAPI document contains itself at '#/${at}' (a YAML alias inside its own anchor, or an object ` +
          'that holds itself); a document is JSON data, which cannot. Write the value out, or refer to it with a $ref.',
      );
    }
    onPath.add(member);
    frames.push({ node: member, keys: Object.keys(member), next: 0 });
  }
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

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
