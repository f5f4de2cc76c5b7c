/**
 * The secrets the adversarial review placed, and the ordinary encodings a secret can be written
 * in. Written independently of the scanner (encoders here, decoders there), so a test that a
 * file holds no form of a secret does not reuse the code it checks.
 */

export const API_KEY = 'sk-ant-api03-Zx9Qw7Lm2Np4Rt6Vb8';
export const BEARER_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.4f9Kq';
/** A declared secret, and one whose quotes and backslash the YAML writer escapes. */
export const DECLARED = 'ACME-PRIVATE-7731';
export const DECLARED_QUOTED = `pa"ss'w\\rd-991`;
export const DECLARED_PATTERNS: readonly RegExp[] = [/ACME-PRIVATE-\d+/, /pa"ss'w\\rd-\d+/];

export interface Secret {
  label: string;
  /** The characters that must never be written, in any form. */
  value: string;
  /** The secret as it appears in use (`Bearer <token>` for a token). */
  written: string;
}

export const SECRETS: readonly Secret[] = [
  { label: 'API key', value: API_KEY, written: API_KEY },
  { label: 'bearer token', value: BEARER_TOKEN, written: `Bearer ${BEARER_TOKEN}` },
  { label: 'declared secret', value: DECLARED, written: DECLARED },
  { label: 'declared secret with quotes', value: DECLARED_QUOTED, written: DECLARED_QUOTED },
];

export const INVISIBLE = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD'] as const;
export const BEARER_SEPARATORS = [' ', '\t', '   ', '\n', ' \n  ', '%20', '+'] as const;
export const BEARER_WORDS = ['Bearer', 'bearer', 'BEARER', 'bEaReR'] as const;
export const KEY_PREFIXES = ['sk-ant-', 'SK-ANT-', 'Sk-Ant-', 'sK-aNt-'] as const;

const bytes = (text: string) => Buffer.from(text, 'utf8');
const percentAll = (text: string) =>
  [...bytes(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const unicodeEscapeAll = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Base64 of the text inside a longer plaintext, at a given byte alignment (0, 1 or 2), standard or url-safe. */
export function base64Embedded(text: string, alignment: number, urlSafe: boolean): string {
  const plain = Buffer.concat([Buffer.from(`${'x'.repeat(alignment)}data: `), bytes(text), Buffer.from(' end')]);
  return plain.toString(urlSafe ? 'base64url' : 'base64');
}

/** Every ordinary encoding of a text, by name. */
export const ENCODINGS: Record<string, (text: string) => string> = {
  plain: (t) => t,
  'base64 at 0': (t) => base64Embedded(t, 0, false),
  'base64 at 1': (t) => base64Embedded(t, 1, false),
  'base64 at 2': (t) => base64Embedded(t, 2, false),
  'base64url at 0': (t) => base64Embedded(t, 0, true),
  'base64url at 1': (t) => base64Embedded(t, 1, true),
  'base64url at 2': (t) => base64Embedded(t, 2, true),
  'bare base64': (t) => bytes(t).toString('base64'),
  'hex lower': (t) => bytes(t).toString('hex'),
  'hex upper': (t) => bytes(t).toString('hex').toUpperCase(),
  'url-encoded': (t) => encodeURIComponent(t),
  'url-encoded fully': percentAll,
  'json-escaped': (t) => JSON.stringify(t).slice(1, -1),
  'json \\u-escaped': unicodeEscapeAll,
  'zero-width inside': (t) => `${t.slice(0, 5)}\u200B${t.slice(5)}`,
  'zero-width wrapped': (t) => `\u2060${t}\uFEFF`,
  'soft hyphen inside': (t) => `${t.slice(0, 9)}\u00AD${t.slice(9)}`,
};

/**
 * Forms a secret's value can take in a written file: each encoding of the value alone, and
 * for base64 the part of each alignment that does not depend on its neighbours.
 */
export function formsOf(value: string): string[] {
  const forms = new Set<string>();
  for (const encode of [
    (t: string) => t,
    (t: string) => bytes(t).toString('hex'),
    (t: string) => bytes(t).toString('hex').toUpperCase(),
    encodeURIComponent,
    percentAll,
    unicodeEscapeAll,
    (t: string) => JSON.stringify(t).slice(1, -1),
  ]) {
    forms.add(encode(value));
  }
  for (let alignment = 0; alignment < 3; alignment++) {
    for (const encoding of ['base64', 'base64url'] as const) {
      // The secret's bytes start at `alignment` within a 3-byte group; the characters wholly inside it are stable.
      const encoded = Buffer.concat([Buffer.alloc(alignment), bytes(value)]).toString(encoding);
      const from = Math.ceil((alignment * 8) / 6);
      const to = Math.floor(((alignment + bytes(value).length) * 8) / 6);
      forms.add(encoded.slice(from, to));
    }
  }
  return [...forms].filter((form) => form.length >= 8);
}
