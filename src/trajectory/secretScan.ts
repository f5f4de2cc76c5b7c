import type YAML from 'yaml';
import { yamlLibrary } from './yamlLibrary.js';
import { formatJsonPath } from '../json/jsonPath.js';
import type { SecretEncoding } from './decodedView.js';
import { decodedViews } from './secretEncodings.js';
import { compileUserPattern, firstMatch } from './userPattern.js';
import { LegateError } from '../errors/LegateError.js';
import { BUILT_IN_SECRETS } from './builtInSecrets.js';

/** What kind of secret a finding is: a built-in credential shape, or one the caller declared. */
export type SecretKind = 'api_key' | 'bearer_token' | 'declared';

/** Patterns that mean a credential reached a recording. */
export const BUILT_IN_SECRET_PATTERNS: readonly RegExp[] = BUILT_IN_SECRETS.map(({ pattern }) => pattern);

/** A secret found, described without any character of it. */
export interface SecretMatch {
  kind: SecretKind;
  /** For a declared secret: its index in the list it was declared in. */
  declared?: number;
  /** How it was written: as it is, or behind which ordinary encoding. */
  encoding: SecretEncoding;
  /** The source of the pattern that matched. A declared pattern can be the secret itself: never print it. */
  pattern: string;
  /** A label safe to print (which kind of secret), holding no character of the secret. */
  masked: string;
}

export interface SecretFinding extends SecretMatch {
  line: number;
  column: number;
  /** The field that holds it (`turns[0].results[1].content`), or `a key of` the object whose key it is, where known. */
  path?: string;
}

interface Compiled {
  kind: SecretKind;
  declared?: number;
  pattern: RegExp;
  /** A built-in's finder, bounded in stack on any input; a declared pattern is matched as it is. */
  find?: (text: string) => number | undefined;
}

function compile(declared: readonly (RegExp | string)[]): Compiled[] {
  return [
    ...BUILT_IN_SECRETS.map(({ kind, pattern, find }) => ({ kind, pattern: compileUserPattern(pattern), find })),
    ...declared.map((source, index) => ({
      kind: 'declared' as const,
      declared: index,
      pattern: compileUserPattern(source),
    })),
  ];
}

function describe(secret: Compiled): string {
  if (secret.kind === 'api_key') return 'an Anthropic API key (sk-ant-…)';
  if (secret.kind === 'bearer_token') return 'a bearer token';
  return `declared secret #${secret.declared! + 1}`;
}

/** The first secret in a text, in any of its views: its index in the text and what it is. */
function scan(text: string, secrets: Compiled[], runs = true): (SecretMatch & { index: number }) | undefined {
  for (const view of decodedViews(text, { runs })) {
    for (const secret of secrets) {
      const at = secret.find === undefined ? firstMatch(secret.pattern, view.text)?.index : secret.find(view.text);
      if (at === undefined) continue;
      const found: SecretMatch & { index: number } = {
        kind: secret.kind,
        encoding: view.encoding,
        pattern: secret.pattern.source,
        masked: describe(secret),
        index: view.origin(at),
      };
      if (secret.declared !== undefined) found.declared = secret.declared;
      return found;
    }
  }
  return undefined;
}

/**
 * Finds the first secret in a text: built-in patterns, then declared ones, each looked for in
 * the text as it is and behind the ordinary encodings (zero-width characters, URL encoding,
 * backslash and quote escapes, base64 in any alignment, hex).
 */
export function findSecret(text: string, declared: readonly (RegExp | string)[] = []): SecretFinding | undefined {
  const found = scan(text, compile(declared));
  if (found === undefined) return undefined;
  const { index, ...match } = found;
  return { ...match, ...lineAndColumn(text, index) };
}

/** A secret found in a value: the path to the string that holds it, or to the object one of whose keys holds it. */
interface SecretInValue extends SecretMatch {
  path: (string | number)[];
  /** The key that holds the secret, when it is a key: never print it. */
  key?: string;
}

/**
 * The first secret in a JSON-like value: every string and every object key, each in its views but its base64 and hex
 * runs (the text's scan sees those). A key is looked at before what it holds, so every key on a finding's path is
 * clean.
 */
function scanValue(value: unknown, secrets: Compiled[]): SecretInValue | undefined {
  // Iterative, so a deeply nested value cannot overflow the stack; each entry links to its
  // parent's path, so a value 20,000 deep does not copy a path per level.
  type Entry = { value: unknown; key: string | number | undefined; parent: Entry | undefined };
  const stack: Entry[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === 'string') {
      const found = scan(current, secrets, false);
      if (found !== undefined) return { ...withoutIndex(found), path: pathOf(entry) };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: entry });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i]!;
        const found = scan(key, secrets, false);
        if (found !== undefined) return { ...withoutIndex(found), path: pathOf(entry), key };
        stack.push({ value: inner, key, parent: entry });
      }
    }
  }
  return undefined;

  function pathOf(entry: Entry): (string | number)[] {
    const path: (string | number)[] = [];
    for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  }
}

/**
 * Finds the first secret in a YAML text about to be written and in the values it was written
 * from (escapes the writer adds cannot hide a secret from the values, nor the writer's output
 * from the text). A secret found only in a value is located in the text by its field.
 */
export function findSecretInYaml(
  text: string,
  value: unknown,
  declared: readonly (RegExp | string)[] = [],
): SecretFinding | undefined {
  const inText = findSecret(text, declared);
  if (inText !== undefined) return inText;
  // Base64 and hex runs are never escaped by the writer: the text's scan has seen each as it is.
  const inValue = scanValue(value, compile(declared));
  if (inValue === undefined) return undefined;
  const { path, key, ...match } = inValue;
  const where =
    key === undefined
      ? formatJsonPath(path)
      : path.length === 0
        ? 'a top-level key'
        : `a key of ${formatJsonPath(path)}`;
  return { ...match, ...locate(text, key === undefined ? path : [...path, key]), path: where };
}

function withoutIndex(found: SecretMatch & { index: number }): SecretMatch {
  const { index: _index, ...match } = found;
  return match;
}

function lineAndColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  return { line: before.split('\n').length, column: index - before.lastIndexOf('\n') };
}

/**
 * Where a field (or, for a key that is itself the secret, the key) is written in a YAML text; the start of the text
 * when it cannot be found.
 */
function locate(text: string, path: (string | number)[]): { line: number; column: number } {
  const YAML = yamlLibrary();
  let node: unknown = YAML.parseDocument(text).contents;
  let start = 0;
  for (const segment of path) {
    if (YAML.isSeq(node) && typeof segment === 'number') node = node.items[segment];
    else if (YAML.isMap(node)) {
      const pair = node.items.find((item) => YAML.isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) break;
      start = (pair.key as YAML.Scalar).range?.[0] ?? start;
      node = pair.value;
      continue;
    } else break;
    start = (node as YAML.Node | undefined)?.range?.[0] ?? start;
  }
  return lineAndColumn(text, start);
}

/**
 * Refusing to save a recording that still holds a secret. The message says where and what kind, never any part of it.
 */
export class SecretInTrajectoryError extends LegateError {
  readonly code = 'secret_in_trajectory';
  constructor(
    readonly file: string,
    readonly finding: SecretFinding,
  ) {
    const how = finding.encoding === 'plain' ? '' : ` (written ${ENCODING_WORDS[finding.encoding]})`;
    const field = finding.path === undefined ? '' : ` in ${finding.path}`;
    super(
      `${file}:${finding.line}:${finding.column}: the recording holds ${finding.masked}${how}${field}, so it ` +
        'was not saved. ' +
        'Declare a redaction for it (a pattern or a key path), then record again.',
    );
  }
}

const ENCODING_WORDS: Record<SecretEncoding, string> = {
  plain: 'as it is',
  'zero-width': 'with invisible characters inside',
  url: 'URL-encoded',
  escaped: 'with backslash escapes',
  quoted: 'with quotes doubled',
  base64: 'in base64',
  hex: 'in hex',
};
