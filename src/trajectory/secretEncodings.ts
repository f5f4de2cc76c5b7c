/**
 * The ordinary encodings a secret can hide behind in a text, undone: each view is the text
 * decoded one way, with a map from every character of the view back to the character of the
 * text it came from, so a secret found in a view is reported where it is in the text.
 */
export type SecretEncoding = 'plain' | 'zero-width' | 'url' | 'escaped' | 'quoted' | 'base64' | 'hex';

export interface DecodedView {
  encoding: SecretEncoding;
  text: string;
  /** The index in the original text that the view's character at `index` came from. */
  origin(index: number): number;
}

/** Invisible characters that break a secret without showing: zero-width spaces and joiners, word joiner, BOM, soft hyphen, bidi marks. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/;
/** A run long enough to hold a short secret once decoded (4 bytes of base64 or 3 of hex). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;
const HEX_RUN = /[0-9A-Fa-f]{6,}/g;
/** Decoded runs are joined with a character no secret pattern should match across. */
const SEPARATOR = '\u0000';

/** Every view of a text: as it is, then each ordinary encoding undone (views that would equal the text are skipped). */
export function decodedViews(text: string): DecodedView[] {
  const views: DecodedView[] = [{ encoding: 'plain', text, origin: (index) => index }];
  const visible = INVISIBLE.test(text) ? stripInvisible(text) : identity(text);
  if (visible.text !== text) views.push(view('zero-width', visible));
  if (text.includes('%')) views.push(view('url', then(then(visible, percentDecode), stripInvisible)));
  if (text.includes('\\')) views.push(view('escaped', then(then(visible, unescapeBackslashes), stripInvisible)));
  if (text.includes("''")) views.push(view('quoted', then(visible, (t) => replaceAll(t, "''", "'"))));
  views.push(view('base64', decodeRuns(text, BASE64_RUN, 4, (chunk) => Buffer.from(chunk, 'base64'))));
  views.push(view('hex', decodeRuns(text, HEX_RUN, 2, (chunk) => Buffer.from(chunk.slice(0, chunk.length - (chunk.length % 2)), 'hex'))));
  return views;
}

/** A decoded text and, for each of its UTF-16 units, the index it came from. */
interface Mapped {
  text: string;
  origins: number[] | undefined;
}

function identity(text: string): Mapped {
  return { text, origins: undefined };
}

function view(encoding: SecretEncoding, mapped: Mapped): DecodedView {
  const { text, origins } = mapped;
  return { encoding, text, origin: (index) => (origins === undefined ? index : (origins[Math.min(index, origins.length - 1)] ?? 0)) };
}

/** Applies a decoding to an already decoded text, mapping through both. */
function then(first: Mapped, decode: (text: string) => Mapped): Mapped {
  const second = decode(first.text);
  if (first.origins === undefined) return second;
  if (second.origins === undefined) return { text: second.text, origins: first.origins };
  const outer = first.origins;
  return { text: second.text, origins: second.origins.map((index) => outer[index] ?? 0) };
}

class Builder {
  readonly #parts: string[] = [];
  readonly #origins: number[] = [];
  push(piece: string, origin: number): void {
    this.#parts.push(piece);
    for (let i = 0; i < piece.length; i++) this.#origins.push(origin);
  }
  done(): Mapped {
    return { text: this.#parts.join(''), origins: this.#origins };
  }
}

function stripInvisible(text: string): Mapped {
  const out = new Builder();
  for (let i = 0; i < text.length; i++) if (!INVISIBLE.test(text[i]!)) out.push(text[i]!, i);
  return out.done();
}

function replaceAll(text: string, from: string, to: string): Mapped {
  const out = new Builder();
  for (let i = 0; i < text.length; ) {
    if (text.startsWith(from, i)) {
      out.push(to, i);
      i += from.length;
    } else out.push(text[i]!, i++);
  }
  return out.done();
}

const utf8 = new TextDecoder('utf-8');

/** `%XX` sequences as UTF-8 bytes (each run decoded together, so `%E2%80%8B` is one character). */
function percentDecode(text: string): Mapped {
  const out = new Builder();
  const escape = /^%[0-9A-Fa-f]{2}/;
  for (let i = 0; i < text.length; ) {
    if (!escape.test(text.slice(i, i + 3))) {
      out.push(text[i]!, i++);
      continue;
    }
    const start = i;
    const bytes: number[] = [];
    while (escape.test(text.slice(i, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    }
    out.push(utf8.decode(Uint8Array.from(bytes)), start);
  }
  return out.done();
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0', a: '\x07', e: '\x1b',
  N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029', ' ': ' ', '\t': '\t', '"': '"', '\\': '\\', '/': '/', "'": "'",
};

/** Backslash escapes as JSON, JavaScript and YAML double-quoted strings write them. */
function unescapeBackslashes(text: string): Mapped {
  const out = new Builder();
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '\\' || i + 1 >= text.length) {
      out.push(text[i]!, i++);
      continue;
    }
    const next = text[i + 1]!;
    const width = next === 'u' ? 4 : next === 'U' ? 8 : next === 'x' ? 2 : 0;
    const digits = text.slice(i + 2, i + 2 + width);
    if (width > 0 && digits.length === width && /^[0-9A-Fa-f]+$/.test(digits)) {
      const code = Number.parseInt(digits, 16);
      out.push(code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd', i);
      i += 2 + width;
    } else if (Object.hasOwn(SIMPLE_ESCAPES, next)) {
      out.push(SIMPLE_ESCAPES[next]!, i);
      i += 2;
    } else out.push(text[i]!, i++);
  }
  return out.done();
}

/**
 * Every run of the encoding's alphabet decoded from each of its possible alignments (a run
 * may start with characters that are not part of the encoded value), as UTF-8.
 */
function decodeRuns(text: string, run: RegExp, alignments: number, decode: (chunk: string) => Buffer): Mapped {
  const out = new Builder();
  run.lastIndex = 0;
  for (let match = run.exec(text); match !== null; match = run.exec(text)) {
    for (let offset = 0; offset < alignments && match[0].length - offset >= 4; offset++) {
      out.push(decode(match[0].slice(offset)).toString('utf8'), match.index + offset);
      out.push(SEPARATOR, match.index + offset);
    }
  }
  return out.done();
}
