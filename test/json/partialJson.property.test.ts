import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePartialJson } from '../../src/json/partialJson.js';
import { contained } from '../support/contained.js';

/** Any JSON value, written compactly or indented, strings of any UTF-16 code units. */
const jsonText = fc
  .tuple(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }), fc.constantFrom(0, 2))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

/** Every prefix of a short text; for a long one, a sorted sample of cut points, ends included. */
function cutsOf(text: string): number[] {
  if (text.length <= 200) return Array.from({ length: text.length + 1 }, (_, i) => i);
  const step = Math.ceil(text.length / 200);
  return [...Array.from({ length: Math.ceil(text.length / step) }, (_, i) => i * step), text.length];
}

describe('parsePartialJson: properties', () => {
  it('the partial of any prefix is contained in the whole value', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const whole = JSON.parse(text) as unknown;
        for (const cut of cutsOf(text)) {
          const partial = parsePartialJson(text.slice(0, cut));
          if (partial !== undefined && !contained(partial.value, whole))
            throw new Error(`prefix ${JSON.stringify(text.slice(0, cut))} gave ${JSON.stringify(partial.value)}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('partials of growing prefixes grow: once shown, a value is contained in every later one', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        let previous: { value: unknown } | undefined;
        for (const cut of cutsOf(text)) {
          const partial = parsePartialJson(text.slice(0, cut));
          if (previous !== undefined) {
            expect(partial, `prefix of ${cut}`).toBeDefined();
            expect(contained(previous.value, partial!.value), `prefix of ${cut}`).toBe(true);
          }
          previous = partial;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the whole text gives the value JSON.parse gives (a bare number once whitespace follows it)', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const whole = JSON.parse(text) as unknown;
        const complete = typeof whole === 'number' ? `${text} ` : text;
        expect(parsePartialJson(complete)).toEqual({ value: whole });
        if (typeof whole === 'number') expect(parsePartialJson(text)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('where partial strings are refused, every string shown is whole', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const whole = JSON.parse(text) as unknown;
        for (const cut of cutsOf(text)) {
          const partial = parsePartialJson(text.slice(0, cut), { partialStringAt: () => false });
          if (partial !== undefined) expect(contained(partial.value, whole, () => false)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('any text: never throws, and agrees with JSON.parse on every text JSON.parse accepts', () => {
    const texts = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom(...'{}[]",:\\ 0123456789-+.eEtruefalsn') }),
      jsonText.chain((text) => fc.nat(text.length).map((cut) => `${text.slice(0, cut)}x${text.slice(cut)}`)),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const partial = parsePartialJson(text);
        let parsed: { value: unknown } | undefined;
        try {
          parsed = { value: JSON.parse(text) as unknown };
        } catch {
          parsed = undefined;
        }
        if (parsed !== undefined && typeof parsed.value !== 'number') expect(partial).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });
});
