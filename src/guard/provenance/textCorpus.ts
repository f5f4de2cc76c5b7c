import { type Needle, normalised, numbersIn, tokensOf } from './valueMatch.js';

/** A prime below 2^26 and a base below 2^20: a hash times the base stays an exact integer (< 2^53). */
const MODULUS = 67108859;
const BASE = 1000003;

/**
 * Many texts, indexed once, to answer which of them a value occurs in (by the rules of
 * `valueMatch.ts`). The texts' tokens are joined into one compact string (a space between two
 * texts, which no token holds), with the offsets where a token starts or a text ends marked, prefix
 * hashes of that string, and the token starts by the hash of their token. A string value is looked
 * for where a token equal to one of its prefixes starts (a run of tokens starts with its first token),
 * each place checked in constant time (a hash compare, then the characters and token boundaries on a
 * hit): a query costs the value's length plus those places, at most the number of tokens, however
 * long the texts. Numbers are indexed by canonical form.
 */
export class TextCorpus {
  private readonly compact: string;
  /** 1 where a token starts or a text ends (in {@link compact}). */
  private readonly boundary: Uint8Array;
  /** Offset in {@link compact} where each text starts, ascending. */
  private readonly textStarts: Int32Array;
  /** hash[i]: the hash of compact[0, i). */
  private readonly hash: Int32Array;
  /** The offsets where a token starts, by the hash of that token. */
  private readonly startsByToken = new Map<number, number[]>();
  private readonly numbers = new Map<string, number[]>();
  private readonly normalisedTexts: string[];

  constructor(texts: readonly string[]) {
    this.normalisedTexts = texts.map(normalised);
    const pieces: string[] = [];
    const tokens: [start: number, length: number][] = [];
    const ends = new Int32Array(texts.length);
    const textStarts: number[] = [];
    let offset = 0;
    this.normalisedTexts.forEach((text, index) => {
      textStarts.push(offset);
      const textTokens = tokensOf(text);
      for (const token of textTokens) {
        tokens.push([offset, token.length]);
        offset += token.length;
      }
      pieces.push(textTokens.join(''));
      ends[index] = offset;
      // The space before the next text.
      offset += 1;
      for (const number of new Set(numbersIn(text))) {
        const holders = this.numbers.get(number);
        if (holders === undefined) this.numbers.set(number, [index]);
        else holders.push(index);
      }
    });
    this.compact = pieces.join(' ');
    this.textStarts = Int32Array.from(textStarts);
    this.boundary = new Uint8Array(this.compact.length + 1);
    for (const [start] of tokens) this.boundary[start] = 1;
    for (const at of ends) this.boundary[at] = 1;
    this.hash = new Int32Array(this.compact.length + 1);
    for (let i = 1; i <= this.compact.length; i++) {
      this.hash[i] = (this.hash[i - 1]! * BASE + this.compact.charCodeAt(i - 1)) % MODULUS;
    }
    const longestToken = tokens.reduce((longest, [, length]) => Math.max(longest, length), 0);
    const powers = [1];
    for (let i = 1; i <= longestToken; i++) powers.push((powers[i - 1]! * BASE) % MODULUS);
    for (const [start, length] of tokens) {
      const key = this.windowHash(start, start + length, powers[length]!);
      const holders = this.startsByToken.get(key);
      if (holders === undefined) this.startsByToken.set(key, [start]);
      else holders.push(start);
    }
  }

  /** The indexes of the texts `needle` occurs in, ascending. */
  textsHolding(needle: Needle): number[] {
    switch (needle.kind) {
      case 'number':
        return this.numbers.get(needle.canonical) ?? [];
      case 'symbols':
        return this.normalisedTexts.flatMap((text, i) => (text.includes(needle.text) ? [i] : []));
      case 'tokens':
        return this.textsHoldingTokens(needle.compact, needle.cuts);
      case 'nothing':
        return [];
    }
  }

  /**
   * The texts where a run of whole tokens, joined, equals `value` (a compact form), and when `cuts` are
   * given, has its token boundaries inside at exactly those offsets.
   */
  private textsHoldingTokens(value: string, cuts: readonly number[]): number[] {
    const length = value.length;
    /** prefixes[i]: the hash of value[0, i + 1). */
    const prefixes = new Int32Array(length);
    let target = 0;
    let power = 1;
    for (let i = 0; i < length; i++) {
      target = (target * BASE + value.charCodeAt(i)) % MODULUS;
      power = (power * BASE) % MODULUS;
      prefixes[i] = target;
    }
    const found = new Set<number>();
    // The run's first token is a prefix of the value: the places are where a token equal to one starts.
    for (const prefix of prefixes) {
      const starts = this.startsByToken.get(prefix);
      if (starts === undefined) continue;
      for (const start of starts) {
        // A run ends where a token starts or a text ends (past the last text, `boundary` holds nothing).
        const end = start + length;
        if (this.boundary[end] !== 1) continue;
        if (this.windowHash(start, end, power) !== target || !this.compact.startsWith(value, start)) continue;
        if (cuts.length > 0 && !this.cutAt(start, length, cuts)) continue;
        found.add(this.textAt(start));
      }
    }
    return [...found].sort((a, b) => a - b);
  }

  /** Whether the tokens from `start` over `length` characters have their boundaries inside exactly at `cuts`. */
  private cutAt(start: number, length: number, cuts: readonly number[]): boolean {
    let next = 0;
    for (let offset = 1; offset < length; offset++) {
      const cut = cuts[next] === offset;
      if (cut) next++;
      if ((this.boundary[start + offset] === 1) !== cut) return false;
    }
    return true;
  }

  /** The hash of compact[start, end), given BASE to the power end - start. */
  private windowHash(start: number, end: number, power: number): number {
    return (((this.hash[end]! - this.hash[start]! * power) % MODULUS) + MODULUS) % MODULUS;
  }

  /** The text whose tokens hold `offset`: the last one starting at or before it. */
  private textAt(offset: number): number {
    // The texts before `low` start at or before `offset`, those from `high` on after it.
    let low = 0;
    let high = this.textStarts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.textStarts[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  }
}
