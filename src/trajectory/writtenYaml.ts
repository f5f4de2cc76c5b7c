import { DECLINE, decline, doubleQuoted, plainKey, plainText, resolvePlain, singleQuoted } from './writtenScalar.js';

const NEWLINE = 10;
const SPACE = 32;
const DASH = 45;
const COLON = 58;
const DOUBLE = 34;
const SINGLE = 39;

/**
 * Characters the writer never leaves bare, and line breaks it never uses: a carriage return, a
 * byte order mark, control characters, the Unicode line separators, an unpaired surrogate.
 */
const UNUSUAL = new RegExp(
  '[\\r\\ufeff\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029]' +
    '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
);

/** Deeper than any file the writer writes (its free values stop at 64 levels), well inside the readers' limit. */
const MAX_DEPTH = 150;

/**
 * The fastest reader of a trajectory: it reads exactly the YAML legate's writer emits
 * (`serialize.ts`: block mappings and sequences indented by two, `key: value` pairs, literal
 * blocks, small flow collections on one line, plain and quoted scalars on one line) and declines,
 * returning undefined, at the first thing it is not sure of, for the general readers to take the
 * whole text. It never refuses and never reports: a text it declines reads exactly as before.
 * A property test holds it to the reference readers on everything the writer writes.
 */
export function readWrittenYaml(text: string): { value: unknown } | undefined {
  if (text.charCodeAt(text.length - 1) !== NEWLINE || text.charCodeAt(0) === SPACE || UNUSUAL.test(text))
    return undefined;
  try {
    const reader = new Reader(text);
    const value = reader.collection(0, 1);
    return reader.pos === text.length ? { value } : undefined;
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/**
 * The first `: ` between `at` and the line's end, or -1. Never searches past the line: a search
 * to the end of the text at every line would make a long file cost the square of its length.
 */
function colonSpace(text: string, at: number, lineEnd: number): number {
  for (let i = at; i < lineEnd; i++) if (text.charCodeAt(i) === COLON && text.charCodeAt(i + 1) === SPACE) return i;
  return -1;
}

class Reader {
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
    if (depth > MAX_DEPTH) decline();
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

  /** A literal block (`|`, `|-`, `|+`) whose lines are indented deeper than `parent`. */
  #literal(parent: number, headerEnd: number): string {
    const { text } = this;
    const chomp = headerEnd - this.pos === 1 ? '' : text.slice(this.pos + 1, headerEnd);
    if (chomp !== '' && chomp !== '-' && chomp !== '+') decline();
    let at = headerEnd + 1;
    let value = '';
    let breaks = 0;
    let indent = -1;
    let content = false;
    while (at < text.length) {
      const lineEnd = text.indexOf('\n', at);
      if (lineEnd === at) {
        breaks++;
        at++;
        continue;
      }
      const spaces = this.#indent(at);
      if (at + spaces === lineEnd) decline(); // a line of spaces only: left to the general readers
      if (indent === -1) {
        if (spaces <= parent) break;
        indent = spaces;
      } else if (spaces < indent) break;
      value += (content ? '\n' : '') + '\n'.repeat(breaks) + text.slice(at + indent, lineEnd);
      content = true;
      breaks = 0;
      at = lineEnd + 1;
    }
    if (!content) decline();
    this.pos = at;
    if (chomp === '-') return value;
    return chomp === '+' ? `${value}\n${'\n'.repeat(breaks)}` : `${value}\n`;
  }
}

/** A flow collection on one line, as the writer writes it: `{ key: value, key: value }`, `[ a, b ]`, `{}`, `[]`. */
class FlowReader {
  /** A flow collection the writer writes is on one line: its end, found once. */
  readonly lineEnd: number;
  constructor(
    readonly text: string,
    public pos: number,
    readonly depth: number,
  ) {
    this.lineEnd = text.indexOf('\n', pos);
  }

  value(): unknown {
    return this.#node(this.depth);
  }

  #node(depth: number): unknown {
    if (depth > MAX_DEPTH) decline();
    const { text } = this;
    const first = text.charCodeAt(this.pos);
    if (first === 123) return this.#collection(depth, 125, true);
    if (first === 91) return this.#collection(depth, 93, false);
    const { lineEnd } = this;
    if (first === DOUBLE || first === SINGLE) {
      const [value, end] =
        first === DOUBLE ? doubleQuoted(text, this.pos, lineEnd) : singleQuoted(text, this.pos, lineEnd);
      this.pos = end;
      return value;
    }
    let end = this.pos;
    for (let code = text.charCodeAt(end); code !== 44 && code !== 93 && code !== 125 && code !== NEWLINE; )
      code = text.charCodeAt(++end);
    if (text.charCodeAt(end - 1) === SPACE) end--;
    const value = resolvePlain(plainText(text, this.pos, end, true));
    this.pos = end;
    return value;
  }

  #collection(depth: number, close: number, mapping: boolean): unknown {
    const { text } = this;
    this.pos++;
    const value: Record<string, unknown> | unknown[] = mapping ? {} : [];
    if (text.charCodeAt(this.pos) === close) {
      this.pos++;
      return value;
    }
    if (text.charCodeAt(this.pos) !== SPACE) decline();
    for (;;) {
      this.pos++;
      if (mapping) {
        const key = this.#key();
        const object = value as Record<string, unknown>;
        if (key === '__proto__' || key === '<<' || Object.hasOwn(object, key)) decline();
        object[key] = this.#node(depth + 1);
      } else (value as unknown[]).push(this.#node(depth + 1));
      const separator = text.charCodeAt(this.pos);
      if (separator === 44 && text.charCodeAt(this.pos + 1) === SPACE) {
        this.pos++;
        continue;
      }
      if (separator !== SPACE || text.charCodeAt(this.pos + 1) !== close) decline();
      this.pos += 2;
      return value;
    }
  }

  #key(): string {
    const { text } = this;
    const { lineEnd } = this;
    const first = text.charCodeAt(this.pos);
    let key: string;
    let end: number;
    if (first === DOUBLE) [key, end] = doubleQuoted(text, this.pos, lineEnd);
    else if (first === SINGLE) [key, end] = singleQuoted(text, this.pos, lineEnd);
    else {
      end = colonSpace(text, this.pos, lineEnd);
      if (end === -1) decline();
      key = plainKey(text, this.pos, end, true);
    }
    if (text.charCodeAt(end) !== COLON || text.charCodeAt(end + 1) !== SPACE) decline();
    this.pos = end + 2;
    return key;
  }
}
