import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { probeOutcome, probeRefusal } from '../support/probeTool.js';

const noop = () => 'ok';
/** The bind of a tool `price` whose `x` has the multipleOf, defined afresh where a test asks for it. */
function binderFor(multipleOf: number, type: 'number' | 'integer' = 'number') {
  const tool = defineTool({
    name: 'price',
    description: 'P.',
    input: { type: 'object', properties: { x: { type, multipleOf } }, required: ['x'] },
    run: noop,
  });
  return (x: number) => tool.bind({ x });
}

describe('multipleOf', () => {
  it(
    'with a fractional divisor, accepts exactly the decimal multiples: 0.01 takes 0.03, 1.1, 100.27 and refuses ' +
      '1e-12, 0.005, 1.001',
    () => {
      const cents = binderFor(0.01);
      for (const x of [0, 0.03, 1.1, 100.27, -0.07, 0.3, 19.99, 1e6, 123456789.12])
        expect(cents(x), String(x)).toEqual({ ok: true, args: { x } });
      for (const x of [1e-12, 0.005, 1.001, 0.015, -0.001, 0.1 + 0.2]) {
        expect(cents(x), String(x)).toMatchObject({ ok: false, invalid: { code: 'out_of_range', path: ['x'] } });
      }
    },
  );

  it('tells the model the rule it broke', () => {
    expect(binderFor(0.01)(0.005)).toMatchObject({
      ok: false,
      invalid: {
        message: "Tool 'price' argument 'x' must be a number a multiple of 0.01, but the value was the number 0.005.",
      },
    });
  });

  it('with other fractional divisors: 0.1, 0.25, 1.5, 1e-8', () => {
    expect(binderFor(0.1)(0.3).ok).toBe(true);
    expect(binderFor(0.1)(0.7).ok).toBe(true);
    expect(binderFor(0.1)(0.71).ok).toBe(false);
    expect(binderFor(0.25)(0.75).ok).toBe(true);
    expect(binderFor(0.25)(0.8).ok).toBe(false);
    expect(binderFor(1.5)(4.5).ok).toBe(true);
    expect(binderFor(1.5)(4).ok).toBe(false);
    expect(binderFor(1e-8)(3e-8).ok).toBe(true);
    expect(binderFor(1e-8)(3.5e-8).ok).toBe(false);
  });

  it('with a whole divisor, for numbers and integers', () => {
    expect(binderFor(5)(15).ok).toBe(true);
    expect(binderFor(5)(-15).ok).toBe(true);
    expect(binderFor(5)(16).ok).toBe(false);
    expect(binderFor(5)(15.5).ok).toBe(false);
    expect(binderFor(3, 'integer')(9).ok).toBe(true);
    expect(binderFor(3, 'integer')(10).ok).toBe(false);
    expect(binderFor(1)(0.5).ok).toBe(false);
  });

  it(
    'with huge values: a large whole number is a multiple of any decimal fraction of 1, and checked exactly ' +
      'against a whole divisor',
    () => {
      expect(binderFor(0.01)(1e300).ok).toBe(true);
      expect(binderFor(0.01)(-1e300).ok).toBe(true);
      // 9007199254740989 = 7 × 1286742750677284.14…
      expect(binderFor(7, 'integer')(Number.MAX_SAFE_INTEGER - 2).ok).toBe(false);
      expect(binderFor(7, 'integer')(9007199254740988).ok).toBe(true); // 7 × 1286742750677284
      expect(binderFor(3)(1e21).ok).toBe(false); // 10^21 leaves remainder 1 when divided by 3
      expect(binderFor(5)(1e21).ok).toBe(true);
      expect(binderFor(1e-300)(1e300).ok).toBe(true);
    },
  );

  it('for decimal divisors k/10^p and whole n, n·d written as a decimal is accepted and n·d + d/2 refused', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        (k, p, n) => {
          const divisor = Number(`${k}e-${p}`);
          const bind = binderFor(divisor);
          const multiple = Number(`${n * k}e-${p}`);
          const between = Number(`${(2 * n + 1) * k * 5}e-${p + 1}`);
          expect(bind(multiple).ok, `${multiple} is ${n} × ${divisor}`).toBe(true);
          expect(bind(between).ok, `${between} lies between multiples of ${divisor}`).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses a value a hair off a multiple (n·d + d·10^-m), however small the hair', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: -9, max: 9 }),
        fc.integer({ min: 6, max: 11 }),
        (k, p, n, m) => {
          // (n·10^m + 1)·k has at most 15 digits, so the literal is exactly the double's shortest decimal.
          const off = Number(`${(BigInt(n) * 10n ** BigInt(m) + 1n) * BigInt(k)}e-${p + m}`);
          expect(binderFor(Number(`${k}e-${p}`))(off).ok, `${off}`).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('accepts whole multiples and refuses the rest as out of range', () => {
    const schema = { type: 'integer', multipleOf: 5 };
    expect([0, 5, 10, -15, 1_000_000_000].map((v) => probeOutcome(schema, v))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect([1, 4, 6, 12, -3].map((v) => probeOutcome(schema, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
    expect(probeRefusal(schema, 12).message).toMatch(
      /^Tool 'probe' argument 'v' must be a whole number .*a multiple of 5, but the value was the number 12\.$/,
    );
  });

  it('tolerates binary floating-point noise for a fractional divisor, and nothing more', () => {
    const schema = { type: 'number', multipleOf: 0.1 };
    expect([0.3, 0.7, 1.1, 2.5, -0.3].map((v) => probeOutcome(schema, v))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect([0.35, 0.01, 0.1000001].map((v) => probeOutcome(schema, v))).toEqual([
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
    expect(probeOutcome({ type: 'number', multipleOf: 0.5 }, 1.25)).toBe('out_of_range');
    expect(probeOutcome({ type: 'number', multipleOf: 0.5 }, 1.5)).toBe('ok');
  });

  it('is checked together with the range', () => {
    const schema = { type: 'integer', minimum: 10, maximum: 20, multipleOf: 10 };
    expect([10, 20, 0, 30, 15].map((v) => probeOutcome(schema, v))).toEqual([
      'ok',
      'ok',
      'out_of_range',
      'out_of_range',
      'out_of_range',
    ]);
  });
});
