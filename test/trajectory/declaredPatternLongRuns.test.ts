import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecret } from '../../src/index.js';
import { createRedactor } from '../../src/trajectory/redaction.js';
import {
  compileUserPattern,
  firstMatch,
  firstMatchInWindows,
  replaceMatches,
} from '../../src/trajectory/userPattern.js';

// Issue 31 (bounded, never lost): a declared pattern with an open-ended repetition overflowed V8's backtrack stack on a
// run of a few MiB (a base64 image in a tool result), so the scan or the redaction threw a RangeError and the recording
// was lost. Each pattern below throws on these texts when matched as it is.
const MIB = 1024 * 1024;
const runOf = (chunk: string, length: number) => chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length);
const image = runOf('iVBORw0KGgoAAAANSUhEUgAA', 8 * MIB);

describe('declared patterns on a run of 8 MiB', () => {
  it('the patterns here do overflow when matched as they are (the test can fail)', () => {
    expect(() => /tok_[A-Za-z0-9]{8,}/.exec(`tok_${image}`)).toThrow(RangeError);
    expect(() => /i(?:[A-Za-z]|\d)+/.exec(image)).toThrow(RangeError);
  });

  it('finds a declared secret that starts the run, or follows it, at its place', () => {
    const declared = [/tok_[A-Za-z0-9]{8,}/];
    expect(findSecret(`x tok_${image}`, declared)).toMatchObject({ kind: 'declared', column: 3 });
    expect(findSecret(`${image} tok_abcdefgh1`, declared)).toMatchObject({
      kind: 'declared',
      column: image.length + 2,
    });
    expect(findSecret(`${image} tok_short`, declared)).toBeUndefined();
  });

  it('redacts every match, leaving no run the pattern matches and nothing of the run beside the placeholders', () => {
    const redact = createRedactor([{ pattern: /[A-Za-z0-9+/]{64,}/, placeholder: '[IMAGE]' }]);
    const redacted = redact({ content: `before ${image} after` }).content;
    expect(redacted).toMatch(/^before (\[IMAGE\])+ after$/);
  });

  it('takes a placeholder literally, as the ordinary path does', () => {
    const pattern = compileUserPattern(/([A-Za-z0-9]){16,}/);
    expect(() => `a ${image}`.replace(pattern, 'x')).toThrow(RangeError);
    expect(replaceMatches(pattern, `a ${image} b`, '$1$&')).toMatch(/^a (\$1\$&)+ b$/);
    expect(replaceMatches(compileUserPattern(/b+/), 'abbcb', '$&')).toBe('a$&c$&');
  });
});

describe('matching window by window gives the answer of matching whole', () => {
  // Patterns whose matches are at most 8 characters long, so each is whole in a window of 16 or more.
  const patterns = [/ab{1,3}c/, /a|b/, /x*/, /[ab]{2,4}/, /(?:ab|ba){1,4}/, /c(?=a)/, /^a/m];
  const text = fc.stringMatching(/^[abcx\n]{0,200}$/);

  it('finds the same first match from any place', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...patterns), fc.nat(), fc.integer({ min: 4, max: 7 }), (t, p, at, log) => {
        const pattern = compileUserPattern(p);
        const from = t.length === 0 ? 0 : at % t.length;
        const whole = firstMatch(pattern, t, from);
        const windowed = firstMatchInWindows(pattern, t, from, 2 ** log);
        if (whole === undefined || p.source.includes('^')) {
          // Where a window's edge is read as the text's start, more can be found, never less.
          if (whole !== undefined) expect(windowed!.index).toBeLessThanOrEqual(whole.index);
          if (whole === undefined && !p.source.includes('^')) expect(windowed).toBeUndefined();
        } else expect(windowed).toEqual(whole);
      }),
      { numRuns: 1500 },
    );
  });

  it('replaces as String.replace does with a literal replacement', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...patterns), (t, p) => {
        const pattern = compileUserPattern(p);
        expect(replaceMatches(pattern, t, '#')).toBe(t.replace(pattern, () => '#'));
      }),
      { numRuns: 500 },
    );
  });
});
