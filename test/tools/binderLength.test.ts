import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';

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
