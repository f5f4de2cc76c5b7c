import { isPlainObject } from '../../json/jsonValue.js';

/**
 * A `$ref` inside one schema document: `#`, a JSON pointer (`#/$defs/Node`,
 * `#/components/schemas/Pet`, with `~0`/`~1` escapes and percent-encoding), or a plain-name
 * fragment declared with `$anchor` (`#node`). Anything else (another document, a URL) is not local.
 */
export type LocalRef = { kind: 'pointer'; tokens: string[] } | { kind: 'anchor'; name: string };

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
