import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import { unknownOptionMessage } from '../tools/unknownOption.js';
import { OpenApiError } from './OpenApiError.js';

/** How `openApiTools` builds and calls the tools. */
export interface OpenApiToolsOptions {
  /**
   * Where requests go: `https://api.example.com/v1` (each operation's path is appended).
   * Default: the document's first server, when its URL is absolute.
   */
  baseUrl?: string;
  /**
   * Headers sent with every request (authentication is the caller's: the model never sets a
   * header). A function is called per request.
   */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** The fetch to send requests with; default: the global fetch. */
  fetch?: typeof fetch;
  /** Put before every tool name: `stripe_`. */
  prefix?: string;
  /** Only operations with at least one of these tags. */
  tags?: readonly string[];
  /** Only these operations, by operationId (or `GET /path` for one without). */
  operationIds?: readonly string[];
  /** More tools than this throws at construction; default 64. */
  maxTools?: number;
  /**
   * The most JSON values the part of the document read (what the selected operations reach) may have
   * with its `$ref`s followed, each replaced by a copy of its target (more throws at construction,
   * before the document is validated), and the inputs of all the tools built from it together.
   * Default 1,000,000.
   */
  maxDocumentNodes?: number;
  /** Characters of each result shown to the model (see defineTool); default 0, no cap. */
  maxResultLength?: number;
  /** Milliseconds a request may take before it is cancelled and the call fails; default 30,000. */
  timeoutMs?: number;
  /** Overrides of the derived flag, by operationId (or `GET /path`): reads are untrusted by default. */
  untrusted?: Readonly<Record<string, boolean>>;
  /** Overrides of the derived flag, by operationId (or `GET /path`): writes are privileged by default. */
  privileged?: Readonly<Record<string, boolean>>;
  /** The authorization policy put on every operation that is not a read (GET, HEAD, OPTIONS). */
  writePolicy?: string;
}

const OPTIONS = [
  'baseUrl',
  'headers',
  'fetch',
  'prefix',
  'tags',
  'operationIds',
  'maxTools',
  'maxDocumentNodes',
  'maxResultLength',
  'timeoutMs',
  'untrusted',
  'privileged',
  'writePolicy',
] as const;
type Complete<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
const optionsComplete: Complete<(typeof OPTIONS)[number], keyof OpenApiToolsOptions> = true;
void optionsComplete;

/** Checks options given untyped (JavaScript, JSON): a misspelt safety override would silently be an absent one. */
export function checkOptions(options: unknown): OpenApiToolsOptions {
  if (options === undefined) return {};
  const fail = (path: string, message: string): never => {
    throw new OpenApiError('openapi_invalid_option', `openApiTools: '${path}' ${message}`);
  };
  if (!isPlainObject(options))
    throw new OpenApiError(
      'openapi_invalid_option',
      `openApiTools: the options must be an object, but they were ${describeValue(options)}.`,
    );
  for (const key of Object.keys(options))
    if (!(OPTIONS as readonly string[]).includes(key))
      throw new OpenApiError(
        'openapi_invalid_option',
        `openApiTools: ${unknownOptionMessage(key, OPTIONS, { one: 'an option of openApiTools', all: 'options' })}`,
      );
  const o = options as Record<string, unknown>;
  if (o.baseUrl !== undefined && (typeof o.baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(o.baseUrl)))
    fail(
      'baseUrl',
      `must be an http(s) URL such as 'https://api.example.com/v1', but it was ${describeValue(o.baseUrl)}.`,
    );
  if (o.headers !== undefined && typeof o.headers !== 'function' && !isStringRecord(o.headers))
    fail(
      'headers',
      'must be an object of header names to strings, or a function returning one, but it was ' +
        `${describeValue(o.headers)}.`,
    );
  if (o.fetch !== undefined && typeof o.fetch !== 'function')
    fail('fetch', `must be a fetch function, but it was ${describeValue(o.fetch)}.`);
  if (o.prefix !== undefined && (typeof o.prefix !== 'string' || !/^[A-Za-z0-9_-]*$/.test(o.prefix)))
    fail(
      'prefix',
      `must be letters, digits, '_' or '-' (it starts tool names), but it was ${describeValue(o.prefix)}.`,
    );
  for (const key of ['tags', 'operationIds'] as const)
    if (o[key] !== undefined && (!Array.isArray(o[key]) || !(o[key] as unknown[]).every((v) => typeof v === 'string')))
      fail(key, `must be a list of strings, but it was ${describeValue(o[key])}.`);
  for (const key of ['maxTools', 'maxDocumentNodes', 'timeoutMs'] as const)
    if (o[key] !== undefined && (!Number.isInteger(o[key]) || (o[key] as number) < 1))
      fail(key, `must be a whole number of at least 1, but it was ${describeValue(o[key])}.`);
  if (o.maxResultLength !== undefined && (!Number.isInteger(o.maxResultLength) || (o.maxResultLength as number) < 0))
    fail(
      'maxResultLength',
      `must be a whole number of characters (0 for no cap), but it was ${describeValue(o.maxResultLength)}.`,
    );
  for (const key of ['untrusted', 'privileged'] as const) {
    const value = o[key];
    if (value === undefined) continue;
    if (!isPlainObject(value))
      fail(key, `must be an object of operationIds to true or false, but it was ${describeValue(value)}.`);
    for (const [id, flag] of Object.entries(value as object))
      if (typeof flag !== 'boolean') fail(`${key}.${id}`, `must be true or false, but it was ${describeValue(flag)}.`);
  }
  if (o.writePolicy !== undefined && (typeof o.writePolicy !== 'string' || o.writePolicy === ''))
    fail('writePolicy', `must be a non-empty policy name, but it was ${describeValue(o.writePolicy)}.`);
  return o as OpenApiToolsOptions;
}

function isStringRecord(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
