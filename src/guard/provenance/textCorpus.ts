import { type Needle, normalised, numbersIn, tokensOf } from './valueMatch.js';

/** A prime below 2^26 and a base below 2^20: a hash times the base stays an exact integer (< 2^53). */
const MODULUS = 67108859;
const BASE = 1000003;

/**
 * Many texts, indexed once, to answer which of them a value occurs in (by the rules of
 * `valueMatch.ts`). The texts' tokens are joined into one compact string (a space between two
 * texts, which no token holds), with the offsets where a token starts or a text ends marked, and
 * prefix hashes of that string: a string value is looked for at each token start in constant time,
 * so a query costs the number of tokens plus the value's length, however long the texts or the value.
 * Numbers are indexed by canonical form.
 */
export class TextCorpus {
  private readonly compact: string;
  /** 1 where a token starts or a text ends (in {@link compact}). */
  private readonly boundary: Uint8Array;
  /** Offsets where a token starts, ascending. */
  private readonly starts: Int32Array;
  /** Offset in {@link compact} where each text starts, ascending. */
  private readonly textStarts: Int32Array;
  /** hash[i]: the hash of compact[0, i). */
  private readonly hash: Int32Array;
  private readonly numbers = new Map<string, number[]>();
  private readonly normalisedTexts: string[];

  constructor(texts: readonly string[]) {
    this.normalisedTexts = texts.map(normalised);
    const pieces: string[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    const textStarts: number[] = [];
    let offset = 0;
    this.normalisedTexts.forEach((text, index) => {
      textStarts.push(offset);
      for (const token of tokensOf(text)) {
        starts.push(offset);
        pieces.push(token);
        offset += token.length;
      }
      ends.push(offset);
      pieces.push(' ');
      offset += 1;
      for (const number of new Set(numbersIn(text))) {
        const holders = this.numbers.get(number);
        if (holders === undefined) this.numbers.set(number, [index]);
        else holders.push(index);
      }
    });
    this.compact = pieces.join('');
    this.starts = Int32Array.from(starts);
    this.textStarts = Int32Array.from(textStarts);
    this.boundary = new Uint8Array(this.compact.length + 1);
    for (const at of starts) this.boundary[at] = 1;
    for (const at of ends) this.boundary[at] = 1;
    this.hash = new Int32Array(this.compact.length + 1);
    for (let i = 0; i < this.compact.length; i++) {
      this.hash[i + 1] = (this.hash[i]! * BASE + this.compact.charCodeAt(i)) % MODULUS;
    }
  }

  /** The number of texts. */
  get size(): number {
    return this.normalisedTexts.length;
  }

  /** The indexes of the texts `needle` occurs in, ascending. */
  textsHolding(needle: Needle): number[] {
    switch (needle.kind) {
      case 'anything':
        return this.normalisedTexts.map((_, i) => i);
      case 'nothing':
        return [];
      case 'number':
        return this.numbers.get(needle.canonical) ?? [];
      case 'symbols':
        return this.normalisedTexts.flatMap((text, i) => (text.includes(needle.text) ? [i] : []));
      case 'tokens':
        return this.textsHoldingTokens(needle.compact);
    }
  }

  private textsHoldingTokens(value: string): number[] {
    const length = value.length;
    let target = 0;
    let power = 1;
    for (let i = 0; i < length; i++) {
      target = (target * BASE + value.charCodeAt(i)) % MODULUS;
      power = (power * BASE) % MODULUS;
    }
    const found: number[] = [];
    let lastText = -1;
    for (const start of this.starts) {
      const end = start + length;
      if (end > this.compact.length) break;
      if (this.boundary[end] !== 1) continue;
      const windowHash = (((this.hash[end]! - this.hash[start]! * power) % MODULUS) + MODULUS) % MODULUS;
      if (windowHash !== target || !this.compact.startsWith(value, start)) continue;
      const text = this.textAt(start);
      if (text !== lastText) found.push(text);
      lastText = text;
    }
    return found;
  }

  /** The text whose tokens hold `offset`. */
  private textAt(offset: number): number {
    let low = 0;
    let high = this.textStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.textStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
