import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { probeOutcome, probeRefusal } from '../support/probeTool.js';

const noop = () => 'ok';
function lengths(minLength: number | undefined, maxLength: number | undefined) {
  const s = {
    type: 'string' as const,
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
  };
  const tool = defineTool({ name: 'note', description: 'N.', input: { type: 'object', properties: { s } }, run: noop });
  return (text: string) => tool.bind({ s: text });
}

describe('minLength and maxLength', () => {
  it('take a string exactly at each bound, and refuse one character past it, with the count', () => {
    const bind = lengths(3, 5);
    expect(bind('abc').ok).toBe(true);
    expect(bind('abcde').ok).toBe(true);
    expect(bind('ab')).toMatchObject({
      ok: false,
      invalid: {
        code: 'too_short',
        path: ['s'],
        message:
          `Tool 'note' argument 's' must be a string of 3 to 5 characters, but the value was the string "ab" (2 ` +
          'characters).',
      },
    });
    expect(bind('abcdef')).toMatchObject({
      ok: false,
      invalid: {
        code: 'too_long',
        message:
          `Tool 'note' argument 's' must be a string of 3 to 5 characters, but the value was the string "abcdef" ` +
          '(6 characters).',
      },
    });
  });

  it('apply alone: a minimum only, a maximum only, and 0 and 1 as bounds', () => {
    expect(lengths(1, undefined)('').ok).toBe(false);
    expect(lengths(1, undefined)('a').ok).toBe(true);
    expect(lengths(undefined, 0)('').ok).toBe(true);
    expect(lengths(undefined, 0)('a')).toMatchObject({ ok: false, invalid: { code: 'too_long' } });
    expect(lengths(2, 2)('ab').ok).toBe(true);
    expect(lengths(2, 2)('a')).toMatchObject({ ok: false, invalid: { code: 'too_short' } });
  });

  it('count a surrogate pair as one character at each bound: 😀 is one, though its UTF-16 length is 2', () => {
    const bind = lengths(2, 3);
    expect(bind('😀')).toMatchObject({
      ok: false,
      invalid: { code: 'too_short', message: expect.stringContaining('(1 character)') },
    });
    expect(bind('😀😀').ok).toBe(true); // UTF-16 length 4, above the maximum of 3
    expect(bind('😀😀😀').ok).toBe(true); // UTF-16 length 6
    expect(bind('😀😀😀😀')).toMatchObject({
      ok: false,
      invalid: { code: 'too_long', message: expect.stringContaining('(4 characters)') },
    });
    // A lone surrogate is one character, as a code point is.
    expect(lengths(2, 2)('\uD83Dx').ok).toBe(true);
    expect(lengths(1, 1)('\uDE00\uD83D')).toMatchObject({ ok: false, invalid: { code: 'too_long' } });
  });

  it('for any string and bounds, accept exactly the strings whose code-point count lies within them', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.string({ unit: 'grapheme', maxLength: 6 }),
          fc.string({ maxLength: 12 }),
        ),
        fc.option(fc.nat(10), { nil: undefined }),
        fc.option(fc.nat(10), { nil: undefined }),
        (text, min, max) => {
          fc.pre(min === undefined || max === undefined || min <= max);
          const count = [...text].length;
          const result = lengths(min, max)(text);
          const fits = (min === undefined || count >= min) && (max === undefined || count <= max);
          expect(result.ok).toBe(fits);
          if (!result.ok) expect(result.invalid.code).toBe(max !== undefined && count > max ? 'too_long' : 'too_short');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('string length, counted in characters, at and around each bound', () => {
  it('minLength: one character short is refused, exactly the bound is accepted', () => {
    const schema = { type: 'string', minLength: 3 };
    expect(['', 'ab', 'abc', 'abcd', 'abcdefghij'].map((v) => probeOutcome(schema, v))).toEqual([
      'too_short',
      'too_short',
      'ok',
      'ok',
      'ok',
    ]);
    expect(probeRefusal(schema, 'ab').message).toBe(
      `Tool 'probe' argument 'v' must be a string of at least 3 characters, but the value was the string "ab" ` +
        '(2 characters).',
    );
    expect(probeRefusal(schema, '').message).toContain('(0 characters)');
  });

  it('maxLength: exactly the bound is accepted, one more is refused', () => {
    const schema = { type: 'string', maxLength: 3 };
    expect(['', 'abc', 'abcd'].map((v) => probeOutcome(schema, v))).toEqual(['ok', 'ok', 'too_long']);
    expect(probeRefusal({ type: 'string', maxLength: 0 }, 'a').message).toBe(
      `Tool 'probe' argument 'v' must be a string of at most 0 characters, but the value was the string "a" (1 ` +
        'character).',
    );
  });

  it('both bounds, and a bound equal on both sides', () => {
    const range = { type: 'string', minLength: 2, maxLength: 3 };
    expect(['a', 'ab', 'abc', 'abcd'].map((v) => probeOutcome(range, v))).toEqual([
      'too_short',
      'ok',
      'ok',
      'too_long',
    ]);
    const exact = { type: 'string', minLength: 2, maxLength: 2 };
    expect(['a', 'ab', 'abc'].map((v) => probeOutcome(exact, v))).toEqual(['too_short', 'ok', 'too_long']);
    expect(probeRefusal(exact, 'a').message).toContain('must be a string of exactly 2 characters');
    expect(probeRefusal(range, 'a').message).toContain('must be a string of 2 to 3 characters');
    expect(probeRefusal({ type: 'string', minLength: 1, maxLength: 1 }, '').message).toContain(
      'must be a string of exactly 1 character,',
    );
  });

  it('minLength 0 refuses nothing, and is not described', () => {
    expect(probeOutcome({ type: 'string', minLength: 0 }, '')).toBe('ok');
    expect(probeRefusal({ type: 'string', minLength: 0 }, 1).message).toBe(
      `Tool 'probe' argument 'v' must be a string, but the value was the number 1.`,
    );
  });

  it('counts a surrogate pair once, at both bounds', () => {
    // '😀' is one character in two UTF-16 units.
    expect(['😀', '😀😀', '😀😀😀'].map((v) => probeOutcome({ type: 'string', minLength: 2 }, v))).toEqual([
      'too_short',
      'ok',
      'ok',
    ]);
    expect(['😀', '😀😀', '😀😀😀'].map((v) => probeOutcome({ type: 'string', maxLength: 2 }, v))).toEqual([
      'ok',
      'ok',
      'too_long',
    ]);
    expect(probeRefusal({ type: 'string', minLength: 2 }, '😀').message).toContain('(1 character)');
    expect(probeRefusal({ type: 'string', maxLength: 2 }, '😀😀😀').message).toContain('(3 characters)');
    // Near the bound by units but not by characters: 'a😀' is 3 units and 2 characters.
    expect(probeOutcome({ type: 'string', minLength: 3 }, 'a😀')).toBe('too_short');
    expect(probeOutcome({ type: 'string', minLength: 3 }, 'a😀b')).toBe('ok');
    expect(probeOutcome({ type: 'string', minLength: 2, maxLength: 2 }, '😀😀')).toBe('ok');
  });

  it('counts the first and last surrogate pairs once, and anything else that looks like one unit by unit', () => {
    const one = { type: 'string', maxLength: 1 };
    // U+10000 and U+10FFFF: the lowest and highest pairs.
    expect(['\ud800\udc00', '\udbff\udfff', '\ud800\udfff', '\udbff\udc00'].map((v) => probeOutcome(one, v))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    // A low surrogate first, a lone high one, a high one before a non-surrogate: two units, two characters.
    expect(
      ['\udc00\ud800', '\ud7ff\udc00', '\ud800\ue000', '\ud800a', '\udc00\udc00', '\ud800\ud800', 'ab'].map((v) =>
        probeOutcome(one, v),
      ),
    ).toEqual(['too_long', 'too_long', 'too_long', 'too_long', 'too_long', 'too_long', 'too_long']);
    // A lone high surrogate at the end counts as one character.
    expect(probeOutcome(one, '\ud800')).toBe('ok');
    expect(probeRefusal({ type: 'string', maxLength: 1 }, 'a\ud800').message).toContain('(2 characters)');
    expect(probeRefusal({ type: 'string', minLength: 3 }, '\ud800\udc00\ud800').message).toContain('(2 characters)');
  });
});
