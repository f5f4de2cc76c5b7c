import type { JsonPath } from './jsonPath.js';

interface PartialJsonOptions {
  /**
   * Whether the string at this path may be shown while it is still being written. Default: yes.
   * Answer no where only whole strings mean something (a value under an `enum` or `const`):
   * such a string then appears only once its closing quote has arrived.
   */
  partialStringAt?: (path: JsonPath) => boolean;
}

/**
 * The value the beginning of a JSON text stands for so far: what is open is closed, and what
 * cannot yet be known is left out. `undefined` while nothing can be shown (only whitespace, a
 * half-written top-level keyword or number) and for text that is not the beginning of any JSON
 * text.
 *
 * The rules, chosen so that the value only ever grows as more text arrives:
 * - An open object or array appears with the members that are known so far.
 * - A property appears once its name is complete and its value has begun to be shown; a
 *   half-written name (`{"na`) or a name still waiting for its value (`{"name":`) is skipped.
 * - A string being written appears as its characters so far (a half-written escape or a lone
 *   first half of a surrogate pair left out), unless `partialStringAt` says no for its path.
 * - `true`, `false` and `null` appear when their last letter has arrived; a half-written one
 *   (`tru`) is skipped.
 * - A number appears only when a character after it shows it has ended (`,`, `]`, `}` or
 *   whitespace): `12` may still become `123` or `12.5`. At the top level, the end of the text is
 *   no such character, so a text that is a bare number gives `undefined` until whitespace follows.
 * - Objects are built as `JSON.parse` builds them (a `__proto__` key is an own property; of
 *   duplicate keys, the last wins, so a value of a duplicated key can shrink).
 *
 * A partial value is a progress snapshot, not a checked one: a string may be cut anywhere, and
 * required properties may be missing. Containers nested deeper than {@link MAX_PARTIAL_DEPTH}
 * levels give `undefined`.
 */
export function parsePartialJson(text: string, options: PartialJsonOptions = {}): { value: unknown } | undefined {
  const reader = new PartialReader(text, options.partialStringAt);
  try {
    const read = reader.value([], 0);
    if (read === NOTHING) return undefined;
    if (read.done && !reader.atEndAfterWhitespace()) return undefined;
    return { value: read.value };
  } catch (error) {
    if (error === NOT_JSON) return undefined;
    throw error;
  }
}

/** How deep objects and arrays may nest in a partial text: past it, the text gives `undefined`. */
export const MAX_PARTIAL_DEPTH = 512;

type Read = { value: unknown; done: boolean } | typeof NOTHING;

/** A value begun at the end of the text that cannot be shown yet. */
const NOTHING = Symbol('nothing yet');
/** Thrown inside the reader when the text is not the beginning of any JSON text. */
const NOT_JSON = Symbol('not JSON');

const KEYWORDS: Record<string, { word: string; value: unknown }> = {
  t: { word: 'true', value: true },
  f: { word: 'false', value: false },
  n: { word: 'null', value: null },
};
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const WHOLE_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_BEGUN = /^-?(?:(?:0|[1-9]\d*)(?:\.\d*)?)?$|^-?(?:0|[1-9]\d*)(?:\.\d+)?[eE][+-]?\d*$/;

class PartialReader {
  #at = 0;

  constructor(
    readonly text: string,
    readonly partialStringAt: ((path: JsonPath) => boolean) | undefined,
  ) {}

  atEndAfterWhitespace(): boolean {
    this.#skipWhitespace();
    return this.#at === this.text.length;
  }

  /** Reads one value. NOTHING and `done: false` are only ever returned at the end of the text. */
  value(path: JsonPath, depth: number): Read {
    this.#skipWhitespace();
    if (this.#at === this.text.length) return NOTHING;
    const c = this.text[this.#at]!;
    if (c === '{' || c === '[') {
      if (depth >= MAX_PARTIAL_DEPTH) throw NOT_JSON;
      return c === '{' ? this.#object(path, depth + 1) : this.#array(path, depth + 1);
    }
    if (c === '"') {
      const read = this.#string();
      if (!read.done && this.partialStringAt !== undefined && !this.partialStringAt(path)) return NOTHING;
      return read;
    }
    if (c === '-' || (c >= '0' && c <= '9')) return this.#number();
    const keyword = KEYWORDS[c];
    if (keyword === undefined) throw NOT_JSON;
    const written = this.text.slice(this.#at, this.#at + keyword.word.length);
    if (!keyword.word.startsWith(written)) throw NOT_JSON;
    this.#at += written.length;
    return written.length === keyword.word.length ? { value: keyword.value, done: true } : NOTHING;
  }

  #object(path: JsonPath, depth: number): Read {
    this.#at++;
    const object: Record<string, unknown> = {};
    const open = { value: object, done: false };
    this.#skipWhitespace();
    if (this.#end()) return open;
    if (this.#take('}')) return { value: object, done: true };
    for (;;) {
      if (this.text[this.#at] !== '"') throw NOT_JSON;
      const key = this.#string();
      if (!key.done) return open;
      this.#skipWhitespace();
      if (this.#end()) return open;
      if (!this.#take(':')) throw NOT_JSON;
      const name = key.value as string;
      const member = this.value([...path, name], depth);
      if (member === NOTHING) return open;
      Object.defineProperty(object, name, {
        value: member.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (!member.done) return open;
      this.#skipWhitespace();
      if (this.#end()) return open;
      if (this.#take('}')) return { value: object, done: true };
      if (!this.#take(',')) throw NOT_JSON;
      this.#skipWhitespace();
      if (this.#end()) return open;
    }
  }

  #array(path: JsonPath, depth: number): Read {
    this.#at++;
    const array: unknown[] = [];
    const open = { value: array, done: false };
    this.#skipWhitespace();
    if (this.#end()) return open;
    if (this.#take(']')) return { value: array, done: true };
    for (;;) {
      const item = this.value([...path, array.length], depth);
      if (item === NOTHING) return open;
      array.push(item.value);
      if (!item.done) return open;
      this.#skipWhitespace();
      if (this.#end()) return open;
      if (this.#take(']')) return { value: array, done: true };
      if (!this.#take(',')) throw NOT_JSON;
      this.#skipWhitespace();
      if (this.#end()) return open;
      if (this.text[this.#at] === ']') throw NOT_JSON;
    }
  }

  /** A string from its opening quote: whole, or its characters so far when the text ends inside it. */
  #string(): { value: string; done: boolean } {
    const text = this.text;
    let at = this.#at + 1;
    let value = '';
    for (;;) {
      if (at >= text.length) {
        this.#at = text.length;
        return { value: withoutLoneHighSurrogate(value), done: false };
      }
      const c = text[at]!;
      if (c === '"') {
        this.#at = at + 1;
        return { value, done: true };
      }
      if (c < ' ') throw NOT_JSON;
      if (c !== '\\') {
        value += c;
        at++;
        continue;
      }
      const kind = text[at + 1];
      if (kind === undefined) {
        this.#at = text.length;
        return { value: withoutLoneHighSurrogate(value), done: false };
      }
      if (kind === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]*$/.test(hex)) throw NOT_JSON;
        if (hex.length < 4) {
          this.#at = text.length;
          return { value: withoutLoneHighSurrogate(value), done: false };
        }
        value += String.fromCharCode(Number.parseInt(hex, 16));
        at += 6;
        continue;
      }
      const escaped = ESCAPES[kind];
      if (escaped === undefined) throw NOT_JSON;
      value += escaped;
      at += 2;
    }
  }

  #number(): Read {
    const start = this.#at;
    while (this.#at < this.text.length && /[0-9+\-.eE]/.test(this.text[this.#at]!)) this.#at++;
    const written = this.text.slice(start, this.#at);
    if (this.#end()) {
      if (!NUMBER_BEGUN.test(written)) throw NOT_JSON;
      return NOTHING;
    }
    if (!WHOLE_NUMBER.test(written)) throw NOT_JSON;
    return { value: Number(written), done: true };
  }

  #skipWhitespace(): void {
    const text = this.text;
    while (this.#at < text.length) {
      const c = text[this.#at];
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') return;
      this.#at++;
    }
  }

  #end(): boolean {
    return this.#at === this.text.length;
  }

  #take(c: string): boolean {
    if (this.text[this.#at] !== c) return false;
    this.#at++;
    return true;
  }
}

/** A string cut between the two halves of a surrogate pair ends without its first half. */
function withoutLoneHighSurrogate(value: string): string {
  const last = value.charCodeAt(value.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? value.slice(0, -1) : value;
}
