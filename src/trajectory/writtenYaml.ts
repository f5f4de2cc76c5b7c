import { MAX_WRITTEN_DEPTH } from './limits.js';
import { FlowReader } from './writtenFlow.js';
import {
  colonSpace,
  DECLINE,
  decline,
  doubleQuoted,
  plainKey,
  plainText,
  resolvePlain,
  singleQuoted,
} from './writtenScalar.js';

const NEWLINE = 10;
const SPACE = 32;
const DASH = 45;
const COLON = 58;
const ZERO = 48;
const DOUBLE = 34;
const SINGLE = 39;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * Characters the writer never leaves bare, and line breaks it never uses: a carriage return, a
 * byte order mark, control characters, the Unicode line separators, an unpaired surrogate.
 */
const UNUSUAL = new RegExp(
  '[\\r\\ufeff\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029]' +
    '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
);

/**
 * The fastest reader of a trajectory: it reads exactly the YAML legate's writer emits
 * (`serialize.ts`: block mappings and sequences indented by two, `key: value` pairs, literal
 * blocks, small flow collections on one line, plain and quoted scalars on one line; with LF or
 * CRLF line breaks, after a byte order mark or none) and declines, returning undefined, at the
 * first thing it is not sure of, for the careful reader to take the whole text. It never refuses
 * and never reports: a text it declines reads exactly as before.
 * Property tests hold it to the careful reader on everything the writer writes.
 */
export function readWrittenYaml(source: string): { value: unknown } | undefined {
  // What git's autocrlf and some editors make of a written file is read too: YAML reads a CRLF as a
  // line break, and a byte order mark at the start as nothing. Any other carriage return is unusual.
  let text = source.charCodeAt(0) === BYTE_ORDER_MARK ? source.slice(1) : source;
  if (text.includes('\r')) text = text.replaceAll('\r\n', '\n');
  if (text.charCodeAt(text.length - 1) !== NEWLINE || text.charCodeAt(0) === SPACE || UNUSUAL.test(text))
    return undefined;
  try {
    const reader = new BlockReader(text);
    const value = reader.collection(0, 1);
    return reader.pos === text.length ? { value } : undefined;
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/**
 * The writer's block structure: mappings and sequences indented by two, and literal blocks. A
 * flow collection on a line is read by {@link FlowReader}, each scalar by `writtenScalar.ts`.
 */
class BlockReader {
  pos = 0;
  /** The end of the line last looked at: a key's line is its value's too, and is scanned once. */
  #lineEnd = -1;
  constructor(readonly text: string) {}

  #lineEndFrom(at: number): number {
    if (this.#lineEnd < at) this.#lineEnd = this.text.indexOf('\n', at);
    return this.#lineEnd;
  }

  /** A block mapping or sequence whose first line's content starts at `pos`, column `column`. */
  collection(column: number, depth: number): unknown {
    if (depth > MAX_WRITTEN_DEPTH) decline();
    return this.#isSequenceItem(this.pos) ? this.#sequence(column, depth) : this.#mapping(column, depth);
  }

  #isSequenceItem(at: number): boolean {
    return this.text.charCodeAt(at) === DASH && this.text.charCodeAt(at + 1) === SPACE;
  }

  #sequence(column: number, depth: number): unknown[] {
    const items: unknown[] = [];
    for (;;) {
      this.pos += 2;
      items.push(this.#item(column + 2, column, depth + 1));
      if (!this.#nextLineAt(column)) return items;
      if (!this.#isSequenceItem(this.pos)) decline(); // a mapping's key as indented as the items: not YAML
    }
  }

  #mapping(column: number, depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    for (;;) {
      const key = this.#key();
      if (key === '__proto__' || key === '<<' || Object.hasOwn(object, key)) decline();
      const after = this.text.charCodeAt(this.pos);
      this.pos++;
      if (after === SPACE) object[key] = this.#inline(column, depth + 1);
      else {
        const indent = this.#indent(this.pos);
        if (indent <= column || this.pos + indent >= this.text.length) decline();
        this.pos += indent;
        object[key] = this.collection(indent, depth + 1);
      }
      if (!this.#nextLineAt(column)) return object;
      if (this.#isSequenceItem(this.pos)) decline(); // an item as indented as the keys: not YAML
    }
  }

  /**
   * At the start of a line (or the end): true, with `pos` past its indentation, when the line
   * goes on the collection at `column`; false, `pos` left at the line's start, when it is less
   * indented (the collection is over). A deeper line here is one no collection takes: declined.
   */
  #nextLineAt(column: number): boolean {
    if (this.pos >= this.text.length) return false;
    const indent = this.#indent(this.pos);
    if (indent > column) decline();
    if (indent < column) return false;
    this.pos += indent;
    return true;
  }

  #indent(at: number): number {
    let i = at;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i - at;
  }

  /** A key and its `:`; `pos` is left at the character after the colon (a space or a line break). */
  #key(): string {
    const { text } = this;
    const start = this.pos;
    const lineEnd = this.#lineEndFrom(start);
    const first = text.charCodeAt(start);
    let key: string;
    let end: number;
    if (first === DOUBLE) [key, end] = doubleQuoted(text, start, lineEnd);
    else if (first === SINGLE) [key, end] = singleQuoted(text, start, lineEnd);
    else {
      end = colonSpace(text, start, lineEnd);
      if (end === -1) end = lineEnd - 1;
      key = plainKey(text, start, end, false);
    }
    if (text.charCodeAt(end) !== COLON) decline();
    const after = text.charCodeAt(end + 1);
    if (after !== SPACE && after !== NEWLINE) decline();
    this.pos = end + 1;
    return key;
  }

  /** A sequence item, after its `- `: a compact sequence or mapping, or a value on the line. */
  #item(column: number, parent: number, depth: number): unknown {
    if (this.#isSequenceItem(this.pos) || this.#startsKey()) return this.collection(column, depth);
    return this.#inline(parent, depth);
  }

  #startsKey(): boolean {
    const { text, pos } = this;
    const lineEnd = this.#lineEndFrom(pos);
    const first = text.charCodeAt(pos);
    if (first === DOUBLE || first === SINGLE) {
      const [, end] = first === DOUBLE ? doubleQuoted(text, pos, lineEnd) : singleQuoted(text, pos, lineEnd);
      return text.charCodeAt(end) === COLON;
    }
    if (first === 123 /* { */ || first === 91 /* [ */ || first === 124 /* | */) return false;
    return colonSpace(text, pos, lineEnd) !== -1 || text.charCodeAt(lineEnd - 1) === COLON;
  }

  /** A value on the rest of the line (a scalar, a flow collection, a literal block's header); `pos` left after it. */
  #inline(parent: number, depth: number): unknown {
    const { text } = this;
    const start = this.pos;
    const lineEnd = this.#lineEndFrom(start);
    const first = text.charCodeAt(start);
    let value: unknown;
    let end: number;
    if (first === 124 /* | */) return this.#literal(parent, lineEnd);
    if (first === DOUBLE) [value, end] = doubleQuoted(text, start, lineEnd);
    else if (first === SINGLE) [value, end] = singleQuoted(text, start, lineEnd);
    else if (first === 123 || first === 91) {
      const flow = new FlowReader(text, start, depth);
      value = flow.value();
      end = flow.pos;
    } else {
      value = resolvePlain(plainText(text, start, lineEnd, false));
      end = lineEnd;
    }
    if (end !== lineEnd) decline();
    this.pos = lineEnd + 1;
    return value;
  }

  /**
   * A literal block (`|`, `|-`, `|+`) whose lines are indented deeper than `parent`. Its indentation is its first
   * line's, or given in its header (`|2-`: `parent` plus 2), as the writer gives it when the text starts with a space.
   * A line of spaces no deeper than that is a blank line of the text (the writer indents a leading one); a deeper one
   * is text, its spaces past the indentation, but in a block of blank lines only, where it is blank too.
   */
  #literal(parent: number, headerEnd: number): string {
    const { text } = this;
    let header = text.slice(this.pos + 1, headerEnd);
    let indent = -1;
    const given = header.charCodeAt(0) - ZERO;
    if (given >= 1 && given <= 9) {
      indent = parent + given;
      header = header.slice(1);
    }
    const chomp = header;
    if (chomp !== '' && chomp !== '-' && chomp !== '+') decline();
    let at = headerEnd + 1;
    let value = '';
    let breaks = 0;
    /** The lines of the block, and whether one holds more than spaces. */
    let lines = 0;
    let printed = false;
    /** The most spaces on a blank line before the indentation is known: more than it is not YAML. */
    let leading = 0;
    let content = false;
    /**
     * Whether the last line of text is spaces only. A kept block (`|+`) may end in one, as the writer writes it; where
     * another ends, the library drops some of them by rules of its own: left to it.
     */
    let spacesLast = false;
    while (at < text.length) {
      const lineEnd = text.indexOf('\n', at);
      const spaces = this.#indent(at);
      const blank = at + spaces === lineEnd;
      if (blank && (indent === -1 || spaces <= indent)) {
        if (indent === -1) leading = Math.max(leading, spaces);
        breaks++;
      } else {
        if (indent === -1) {
          if (spaces <= parent) break;
          if (spaces < leading) decline();
          indent = spaces;
        } else if (spaces < indent) break;
        value += (content ? '\n' : '') + '\n'.repeat(breaks) + text.slice(at + indent, lineEnd);
        content = true;
        printed ||= !blank;
        spacesLast = blank;
        breaks = 0;
      }
      lines++;
      at = lineEnd + 1;
    }
    this.pos = at;
    if (!printed) {
      // Blank lines only: the writer keeps them (`|+`), each one a line break.
      if (chomp !== '+') decline();
      return '\n'.repeat(lines);
    }
    if (spacesLast && chomp !== '+') decline();
    if (chomp === '-') return value;
    return chomp === '+' ? `${value}\n${'\n'.repeat(breaks)}` : `${value}\n`;
  }
}
