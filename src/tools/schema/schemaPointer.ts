import { isPlainObject } from '../../json/jsonValue.js';
import { VALUE_KEYWORDS } from './schemaKeywords.js';

/**
 * A `$ref` inside one schema document: `#`, a JSON pointer (`#/$defs/Node`,
 * `#/components/schemas/Pet`, with `~0`/`~1` escapes and percent-encoding), or a plain-name
 * fragment declared with `$anchor` (`#node`). Anything else (another document, a URL) is not local.
 */
type LocalRef = { kind: 'pointer'; tokens: string[] } | { kind: 'anchor'; name: string };

export function parseLocalRef(ref: string): LocalRef | undefined {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return { kind: 'pointer', tokens: [] };
  if (!fragment.startsWith('/'))
    return /^[A-Za-z_][-A-Za-z0-9._]*$/.test(fragment) ? { kind: 'anchor', name: fragment } : undefined;
  return {
    kind: 'pointer',
    tokens: fragment
      .slice(1)
      .split('/')
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~')),
  };
}

/** The pointer for a list of tokens, as `$ref` writes it: `#/$defs/Node`. */
export function pointerOf(tokens: readonly string[]): string {
  return `#${tokens.map((token) => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

/** The value at `tokens` in `document`, or undefined when the path does not exist. */
export function valueAtPointer(document: unknown, tokens: readonly string[]): unknown {
  let current = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (isPlainObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** `input.$defs.Node.properties.children`: where in the declaration a pointer leads, for a message. */
export function declarationPath(tokens: readonly string[]): string {
  return ['input', ...tokens].join('.');
}

/**
 * Every `$anchor` in the document, by name, with the pointer to the schema that declares it.
 * Walked with a stack of its own (a schema of any depth, or with cycles, is walked once).
 */
export function collectAnchors(document: unknown): Map<string, string[]> {
  const anchors = new Map<string, string[]>();
  const seen = new Set<object>();
  const pending: [node: unknown, tokens: string[]][] = [[document, []]];
  while (pending.length > 0) {
    const [node, tokens] = pending.pop()!;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) pending.push([item, [...tokens, String(i)]]);
      continue;
    }
    const schema = node as Record<string, unknown>;
    if (typeof schema.$anchor === 'string' && !anchors.has(schema.$anchor)) anchors.set(schema.$anchor, tokens);
    for (const [key, value] of Object.entries(schema))
      if (!VALUE_KEYWORDS.has(key)) pending.push([value, [...tokens, key]]);
  }
  return anchors;
}

/** Puts `value` at `tokens` in `document`; false when the path does not exist there. */
export function setAtPointer(document: Record<string, unknown>, tokens: string[], value: unknown): boolean {
  const parent = valueAtPointer(document, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent) && /^\d+$/.test(last) && Number(last) < parent.length) parent[Number(last)] = value;
  else if (isPlainObject(parent) && Object.hasOwn(parent, last)) parent[last] = value;
  else return false;
  return true;
}
