import fc from 'fast-check';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { DECLINE, plainKey, plainText, resolvePlain } from '../../src/trajectory/writtenScalar.js';

// The writer's reader takes a plain scalar only when it is sure the careful reader would read it the same; a scalar
// it took where it should have declined would be read differently from the YAML the file holds. plainText checks its
// rules in one pass over the characters, resolvePlain and plainKey look a word up only where it can be a constant.
// Held here to the same rules said the plain way, as patterns over the scalar's text, for any text at any place.

/** A plain scalar may not start with an indicator or a blank, nor with `-`, `?` or `:` before a blank or the end. */
const INDICATOR = /^[,[\]{}#&*!|>'"%@`\s]|^[-?:](?:$|\s)/;
/** The YAML 1.2 core schema's null and boolean words, as the careful reader (the `yaml` library) resolves them. */
const coreTags = new YAML.Schema({ schema: 'core' }).tags as { tag: string; test?: RegExp }[];
const tagOf = (name: string) => coreTags.find((tag) => tag.tag === `tag:yaml.org,2002:${name}`)!;
/** What a plain word means when it is one of those (the empty text, null there, is no plain scalar here). */
function constantOf(word: string): { value: unknown } | undefined {
  if (word !== '' && tagOf('null').test!.test(word)) return { value: null };
  if (tagOf('bool').test!.test(word)) return { value: /^(?:[Tt]rue|TRUE)$/.test(word) };
  return undefined;
}

/** What plainText must say: the text, or a decline. */
function expectedText(text: string, start: number, end: number, flow: boolean): string | typeof DECLINE {
  if (end <= start) return DECLINE;
  const value = text.slice(start, end);
  if (INDICATOR.test(value)) return DECLINE;
  const last = value.charCodeAt(value.length - 1);
  if (last === 32 || last === 9 || last === 58) return DECLINE;
  if (/:[ \t]|[ \t]#/.test(value)) return DECLINE;
  if (flow && /[,[\]{}]/.test(value)) return DECLINE;
  return value;
}

/** What a call says: its value, or the decline it threw. */
function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (thrown) {
    if (thrown === DECLINE) return DECLINE;
    throw thrown;
  }
}

/** Text made of what the rules look at: indicators, blanks, Unicode spaces, constants' words, digits and letters. */
const piece = fc.oneof(
  fc.constantFrom('-', '?', ':', '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`'),
  fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b'),
  fc.constantFrom('null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'FALSE', 'nul', 'trueish', 'f'),
  fc.constantFrom('a', 'Z', '_', '7', '0', '.', 'é', '日本', '\u{1F600}', 'x: y', 'a #b', ':\t', '\t#', ':-', '-:'),
  fc.string({ maxLength: 3 }),
);
const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
/** A text, a place in it (start, end) and whether the scalar is inside a flow collection. */
const scalarAt = text.chain((whole) =>
  fc.tuple(fc.constant(whole), fc.nat({ max: whole.length }), fc.nat({ max: whole.length }), fc.boolean()),
);

describe("the writer's reader's plain scalars", () => {
  it('takes a plain scalar exactly where the rules said as patterns take it', () => {
    fc.assert(
      fc.property(scalarAt, ([whole, a, b, flow]) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        expect(outcome(() => plainText(whole, start, end, flow))).toBe(expectedText(whole, start, end, flow));
      }),
      { numRuns: 20_000 },
    );
  });

  it('resolves a word to a constant exactly when it is one, and a key only when it is no constant', () => {
    fc.assert(
      fc.property(scalarAt, ([whole, a, b, flow]) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const value = whole.slice(start, end);
        const resolved = outcome(() => resolvePlain(value));
        const constant = constantOf(value);
        if (constant !== undefined) expect(resolved).toBe(constant.value);
        else if (resolved !== DECLINE && typeof resolved !== 'number') expect(resolved).toBe(value);
        const key = outcome(() => plainKey(whole, start, end, flow));
        if (constant !== undefined || expectedText(whole, start, end, flow) === DECLINE) expect(key).toBe(DECLINE);
        else if (key !== DECLINE) expect(key).toBe(value);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the words it is sure of, and declines the rest', () => {
    expect(resolvePlain('null')).toBeNull();
    expect(resolvePlain('FALSE')).toBe(false);
    expect(resolvePlain('~')).toBeNull();
    expect(resolvePlain('nullable')).toBe('nullable');
    expect(resolvePlain('12')).toBe(12);
    expect(outcome(() => resolvePlain('0x1F'))).toBe(DECLINE);
    expect(plainText('key: -x', 5, 7, false)).toBe('-x');
    expect(outcome(() => plainText('key: - x', 5, 8, false))).toBe(DECLINE);
    expect(outcome(() => plainText('a: -', 3, 4, false))).toBe(DECLINE);
    expect(outcome(() => plainText('v: a\u00a0', 3, 5, false))).toBe('a\u00a0');
    expect(outcome(() => plainText('v: \u00a0a', 3, 5, false))).toBe(DECLINE);
    expect(outcome(() => plainText('[a]', 0, 2, true))).toBe(DECLINE);
  });
});
