/**
 * The ordinary encodings a secret can hide behind in a text, undone: each view is the text
 * decoded one way, with a map from every character of the view back to the character of the
 * text it came from, so a secret found in a view is reported where it is in the text.
 */
import type { DecodedView, SecretEncoding } from './decodedView.js';
import { decodedRuns } from './encodedRuns.js';

/**
 * Invisible characters that break a secret without showing: zero-width spaces and joiners, word joiner, BOM, soft
 * hyphen, bidi marks.
 */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/;

/**
 * Every view of a text: as it is, then each ordinary encoding undone (views that would equal
 * the text are skipped). `runs: false` leaves out base64 and hex, for a value whose runs of
 * those alphabets are written unchanged in a text that is scanned with them.
 */
export function decodedViews(text: string, options: { runs?: boolean } = {}): DecodedView[] {
  const views: DecodedView[] = [{ encoding: 'plain', text, origin: (index) => index }];
  const visible = INVISIBLE.test(text) ? stripInvisible(text) : identity(text);
  if (visible.text !== text) views.push(view('zero-width', visible));
  if (text.includes('%')) views.push(view('url', then(then(visible, percentDecode), stripInvisible)));
  // Escapes nest (a JSON text inside a JSON string, inside a YAML double-quoted one): undo
  // them level by level, to a bounded depth, each level a view of its own.
  let escaped = visible;
  for (let level = 0; level < MAX_ESCAPE_LEVELS && escaped.text.includes('\\'); level++) {
    const next = then(escaped, unescapeBackslashes);
    if (next.text === escaped.text) break;
    escaped = next;
    views.push(view('escaped', then(escaped, stripInvisible)));
  }
  if (text.includes("''")) views.push(view('quoted', then(visible, undoubleQuotes)));
  if (options.runs === false) return views;
  return [...views, ...decodedRuns(text, 'base64'), ...decodedRuns(text, 'hex')];
}

/**
 * A decoded text and where its parts came from: each segment starts at `at` in the decoded
 * text and came from `from` in the source, character for character when `copied`, or as a
 * whole (a decoded escape or run) when not.
 */
interface Mapped {
  text: string;
  segments: { at: number; from: number; copied: boolean }[] | undefined;
}

function identity(text: string): Mapped {
  return { text, segments: undefined };
}

/** The index of the segment holding a character of the decoded text. */
function segmentAt(segments: NonNullable<Mapped['segments']>, index: number): number {
  let low = 0;
  let high = segments.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (segments[middle]!.at <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

function originOf(mapped: Mapped, index: number): number {
  const { segments } = mapped;
  if (segments === undefined) return index;
  if (segments.length === 0) return 0;
  const segment = segments[segmentAt(segments, index)]!;
  return segment.copied ? segment.from + (index - segment.at) : segment.from;
}

function view(encoding: SecretEncoding, mapped: Mapped): DecodedView {
  return { encoding, text: mapped.text, origin: (index) => originOf(mapped, index) };
}

/** Applies a decoding to an already decoded text, mapping through both. */
function then(first: Mapped, decode: (text: string) => Mapped): Mapped {
  const second = decode(first.text);
  if (first.segments === undefined) return second;
  if (second.segments === undefined) return { text: second.text, segments: first.segments };
  // Each segment of the second maps through the first; a copied one is split where the first's segments change.
  const inner = first.segments;
  const segments: NonNullable<Mapped['segments']> = [];
  second.segments.forEach((segment, i) => {
    if (!segment.copied || inner.length === 0) {
      segments.push({ at: segment.at, from: originOf(first, segment.from), copied: false });
      return;
    }
    const length = (i + 1 < second.segments!.length ? second.segments![i + 1]!.at : second.text.length) - segment.at;
    for (let k = segmentAt(inner, segment.from); k < inner.length && inner[k]!.at < segment.from + length; k++) {
      const start = Math.max(inner[k]!.at, segment.from);
      const at = segment.at + (start - segment.from);
      segments.push(
        inner[k]!.copied
          ? { at, from: inner[k]!.from + (start - inner[k]!.at), copied: true }
          : { at, from: inner[k]!.from, copied: false },
      );
    }
  });
  return { text: second.text, segments };
}

class Builder {
  readonly #parts: string[] = [];
  readonly #segments: NonNullable<Mapped['segments']> = [];
  #length = 0;
  /** Text copied from the source at `from`. */
  copy(piece: string, from: number): void {
    this.#add(piece, from, true);
  }
  /** Text decoded from the source at `from`. */
  decoded(piece: string, from: number): void {
    this.#add(piece, from, false);
  }
  #add(piece: string, from: number, copied: boolean): void {
    if (piece.length === 0) return;
    this.#parts.push(piece);
    this.#segments.push({ at: this.#length, from, copied });
    this.#length += piece.length;
  }
  done(): Mapped {
    return { text: this.#parts.join(''), segments: this.#segments };
  }
}

/** The text with every match of a pattern replaced by what `decode` makes of it, the rest copied. */
function replacing(text: string, pattern: RegExp, decode: (match: RegExpExecArray) => string): Mapped {
  const out = new Builder();
  let last = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    out.copy(text.slice(last, match.index), last);
    out.decoded(decode(match), match.index);
    last = match.index + match[0].length;
  }
  out.copy(text.slice(last), last);
  return out.done();
}

const INVISIBLE_RUNS = new RegExp(`${INVISIBLE.source}+`, 'g');

function stripInvisible(text: string): Mapped {
  if (!INVISIBLE.test(text)) return identity(text);
  return replacing(text, INVISIBLE_RUNS, () => '');
}

function undoubleQuotes(text: string): Mapped {
  return replacing(text, /''/g, () => "'");
}

const utf8 = new TextDecoder('utf-8');

/** `%XX` sequences as UTF-8 bytes (each run decoded together, so `%E2%80%8B` is one character). */
function percentDecode(text: string): Mapped {
  return replacing(text, /(?:%[0-9A-Fa-f]{2})+/g, ([run]) => {
    const first = Number.parseInt(run.slice(1, 3), 16);
    return run.length === 3 && first < 0x80
      ? String.fromCharCode(first)
      : utf8.decode(Buffer.from(run.replace(/%/g, ''), 'hex'));
  });
}

/** How many levels of nested backslash escaping are undone. */
const MAX_ESCAPE_LEVELS = 3;

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  a: '\x07',
  e: '\x1b',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '\t': '\t',
  '"': '"',
  '\\': '\\',
  '/': '/',
  "'": "'",
};

/** Backslash escapes as JSON, JavaScript and YAML double-quoted strings write them. */
function unescapeBackslashes(text: string): Mapped {
  return replacing(text, /\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|[\s\S])/g, ([sequence]) => {
    const kind = sequence[1]!;
    if (sequence.length > 2) {
      const code = Number.parseInt(sequence.slice(2), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return Object.hasOwn(SIMPLE_ESCAPES, kind) ? SIMPLE_ESCAPES[kind]! : sequence;
  });
}
