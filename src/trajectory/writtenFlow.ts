import { MAX_WRITTEN_DEPTH } from './limits.js';
import { colonSpace, decline, doubleQuoted, plainKey, plainText, resolvePlain, singleQuoted } from './writtenScalar.js';

const NEWLINE = 10;
const SPACE = 32;
const COLON = 58;
const DOUBLE = 34;
const SINGLE = 39;

/** A flow collection on one line, as the writer writes it: `{ key: value, key: value }`, `[ a, b ]`, `{}`, `[]`. */
export class FlowReader {
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
    if (depth > MAX_WRITTEN_DEPTH) decline();
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
