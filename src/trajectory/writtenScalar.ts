/**
 * The scalars legate's writer emits, read the way the YAML 1.2 core schema reads them: plain
 * (resolved to null, a boolean, a number or a string), single-quoted and double-quoted, each on
 * one line. Whatever is not certainly one of them declines (`throw DECLINE`): the careful reader
 * takes the whole text then.
 */

/** Thrown to say "not a text this reader is sure of"; caught by `readWrittenYaml`, never escapes it. */
export const DECLINE: unique symbol = Symbol('decline');

export function decline(): never {
  throw DECLINE;
}

const SPACE = 32;
const TAB = 9;
const QUOTE = 39; // '
const BACKSLASH = 92;

/** The end of a single-quoted scalar starting at `start` (the quote): the scalar and the index after it. */
export function singleQuoted(text: string, start: number, lineEnd: number): [string, number] {
  let value = '';
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf("'", from);
    if (quote === -1 || quote > lineEnd) decline();
    value += text.slice(from, quote);
    if (text.charCodeAt(quote + 1) !== QUOTE) return [value, quote + 1];
    value += "'";
    from = quote + 2;
  }
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A double-quoted scalar starting at `start` (the quote), on one line: the scalar and the index after it. */
export function doubleQuoted(text: string, start: number, lineEnd: number): [string, number] {
  let value = '';
  let from = start + 1;
  for (let i = from; i < lineEnd; i++) {
    const code = text.charCodeAt(i);
    if (code === 34) return [value + text.slice(from, i), i + 1];
    if (code !== BACKSLASH) continue;
    value += text.slice(from, i);
    const indicator = text[i + 1]!;
    const digits = HEX_DIGITS[indicator];
    if (digits !== undefined) {
      const hex = text.slice(i + 2, i + 2 + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) decline();
      const point = Number.parseInt(hex, 16);
      if (point > 0x10ffff) decline();
      value += point <= 0xffff ? String.fromCharCode(point) : String.fromCodePoint(point);
      i += 1 + digits;
    } else {
      const replacement = ESCAPES[indicator];
      if (replacement === undefined) decline();
      value += replacement;
      i += 1;
    }
    from = i + 1;
  }
  return decline();
}

/**
 * Anything a number could be written as, in the core schema or near it (YAML 1.1's forms too): such text declines.
 */
const NUMBER_LIKE = new RegExp(
  '^[-+]?(?:[0-9][0-9_]*(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+]?[0-9]+)?|0[xob][0-9a-fA-F_]+' +
    '|\\.[a-zA-Z]+|[0-9][0-9_]*(?::[0-9_]+)+(?:\\.[0-9_]*)?)$',
);
const CANONICAL_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;
const CANONICAL_FLOAT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:e[-+][0-9]+)?$/;
const CONSTANTS = new Map<string, null | boolean>([
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['~', null],
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/** The first characters of CONSTANTS' words: text starting otherwise, or longer than five, is none of them. */
const CONSTANT_FIRST = new Set([...CONSTANTS.keys()].map((word) => word.charCodeAt(0)));

function mayBeConstant(text: string, first: number): boolean {
  return text.length <= 5 && CONSTANT_FIRST.has(first);
}

/** The ASCII characters a plain scalar may not start with: YAML's indicators (`-`, `?` and `:` apart, below). */
const INDICATORS = ',[]{}#&*!|>\'"%@`';
/** Per ASCII code: 1 for an indicator a plain scalar may not start with, 2 for white space (as `\s` has it). */
const FIRST = new Uint8Array(128);
for (const indicator of INDICATORS) FIRST[indicator.charCodeAt(0)] = 1;
for (const space of ' \t\n\v\f\r') FIRST[space.charCodeAt(0)] = 2;

/** Whether the character at `at` is white space as a regular expression's `\s` has it. */
function isSpaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code < 128 ? FIRST[code] === 2 : /\s/.test(text[at]!);
}

/**
 * A plain scalar's text, from `start` to `end`, checked to be one the writer could have written
 * (no comment, no `: `, no leading indicator, no blank around it) and, in a flow
 * collection, none of `,[]{}`. One pass over the characters, no text made until it is sure: every scalar of a file
 * comes through here (test/trajectory/writtenScalar.property.test.ts holds it to the same rules said as patterns).
 */
export function plainText(text: string, start: number, end: number, flow: boolean): string {
  if (end <= start) decline();
  const first = text.charCodeAt(start);
  if (first < 128 ? FIRST[first] !== 0 : isSpaceAt(text, start)) decline();
  // `-`, `?` and `:` start a plain scalar only before a character that is not white space.
  if ((first === 45 || first === 63 || first === 58) && (end === start + 1 || isSpaceAt(text, start + 1))) decline();
  const last = text.charCodeAt(end - 1);
  if (last === SPACE || last === TAB || last === 58 /* : */ || (flow && isFlowIndicator(last))) decline();
  // The first character is none of these (above); neither `:` nor a blank is last, so each has a next one inside.
  for (let i = start + 1; i < end - 1; i++) {
    const code = text.charCodeAt(i);
    if (code === 58 /* : */) {
      const next = text.charCodeAt(i + 1);
      if (next === SPACE || next === TAB) decline();
    } else if (code === SPACE || code === TAB) {
      if (text.charCodeAt(i + 1) === 35 /* # */) decline();
    } else if (flow && isFlowIndicator(code)) decline();
  }
  return text.slice(start, end);
}

/** `,`, `[`, `]`, `{` or `}`: what ends a scalar in a flow collection. */
function isFlowIndicator(code: number): boolean {
  return code === 44 || code === 91 || code === 93 || code === 123 || code === 125;
}

/** What a plain scalar means in the core schema; text that might mean something else declines. */
export function resolvePlain(value: string): unknown {
  const first = value.charCodeAt(0);
  if (mayBeConstant(value, first)) {
    const constant = CONSTANTS.get(value);
    if (constant !== undefined) return constant;
  }
  // Only text starting with a digit, a sign or a dot can be a number: most text is a string by its first letter.
  if (first > 57 /* 9 */ || (first < 48 && first !== 43 && first !== 45 && first !== 46) || !NUMBER_LIKE.test(value))
    return value;
  if (CANONICAL_INTEGER.test(value) || CANONICAL_FLOAT.test(value)) {
    const number = Number(value);
    if (Number.isFinite(number)) return number;
  }
  return decline();
}

/** A plain key: a string in the core schema, never one a reader treats apart. */
export function plainKey(text: string, start: number, end: number, flow: boolean): string {
  if (isWord(text, start, end)) {
    const word = text.slice(start, end);
    if (!mayBeConstant(word, word.charCodeAt(0)) || !CONSTANTS.has(word)) return word;
  }
  const key = plainText(text, start, end, flow);
  if (resolvePlain(key) !== key) decline();
  return key;
}

/** Letters, digits and `_`, starting with a letter or `_` (most keys): plain, and a string unless a constant. */
function isWord(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i) | 32; // a letter in lower case
    const letter = code >= 97 && code <= 122;
    const other = text.charCodeAt(i);
    if (!letter && other !== 95 && (i === start || other < 48 || other > 57)) return false;
  }
  return true;
}

/**
 * The first `: ` between `at` and the line's end, or -1. Never searches past the line: a search
 * to the end of the text at every line would make a long file cost the square of its length.
 */
export function colonSpace(text: string, at: number, lineEnd: number): number {
  for (let i = at; i < lineEnd; i++)
    if (text.charCodeAt(i) === 58 /* : */ && text.charCodeAt(i + 1) === SPACE) return i;
  return -1;
}
