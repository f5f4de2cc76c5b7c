import { describe, expect, it } from 'vitest';
import { MAX_PARTIAL_DEPTH, parsePartialJson } from '../../src/json/partialJson.js';

const value = (text: string, options?: Parameters<typeof parsePartialJson>[1]) =>
  parsePartialJson(text, options)?.value;

describe('parsePartialJson', () => {
  it('closes what is open and keeps the members known so far', () => {
    expect(value('{')).toEqual({});
    expect(value('{"recipe": {"name": "Classic Las')).toEqual({ recipe: { name: 'Classic Las' } });
    expect(value('{"steps": ["Cook", "Dra')).toEqual({ steps: ['Cook', 'Dra'] });
    expect(value('[[1, 2], [3')).toEqual([[1, 2], []]);
    expect(value('{"a": [{"b": {')).toEqual({ a: [{ b: {} }] });
  });

  it('skips a half-written property name, and a name still waiting for its value', () => {
    expect(value('{"name": "x", "amo')).toEqual({ name: 'x' });
    expect(value('{"name": "x", "amount"')).toEqual({ name: 'x' });
    expect(value('{"name": "x", "amount" :  ')).toEqual({ name: 'x' });
  });

  it('skips a half-written keyword and keeps a whole one', () => {
    expect(value('{"ok": tr')).toEqual({});
    expect(value('{"ok": true')).toEqual({ ok: true });
    expect(value('[nul')).toEqual([]);
    expect(value('[null')).toEqual([null]);
    expect(value('fals')).toBeUndefined();
  });

  it('keeps a number only once a delimiter shows it ended', () => {
    expect(value('{"amount": 12')).toEqual({});
    expect(value('{"amount": 12.')).toEqual({});
    expect(value('{"amount": 12.3e')).toEqual({});
    expect(value('{"amount": 12.34 ')).toEqual({ amount: 12.34 });
    expect(value('{"amount": 12.34}')).toEqual({ amount: 12.34 });
    expect(value('[1, -2')).toEqual([1]);
    expect(value('12')).toBeUndefined();
    expect(value('12 ')).toBe(12);
  });

  it('leaves out a half-written escape and the first half of a surrogate pair', () => {
    expect(value('"tab\\')).toBe('tab');
    expect(value('"snow\\u26')).toBe('snow');
    expect(value('"snow\\u2603')).toBe('snow\u2603');
    expect(value('"face \\ud83d')).toBe('face ');
    expect(value('"face \\ud83d\\ude00')).toBe('face \u{1f600}');
    expect(value('"face \ud83d')).toBe('face ');
  });

  it('shows a string only when whole where partialStringAt says no (an enum value)', () => {
    const closed = { partialStringAt: (path: (string | number)[]) => path.join('.') !== 'status' };
    expect(value('{"status": "shi', closed)).toEqual({});
    expect(value('{"status": "shipped"', closed)).toEqual({ status: 'shipped' });
    expect(value('{"note": "shi', closed)).toEqual({ note: 'shi' });
    const paths: (string | number)[][] = [];
    const record = (path: (string | number)[]) => {
      paths.push(path);
      return true;
    };
    value('{"a": [{"b": "x', { partialStringAt: record });
    expect(paths).toEqual([['a', 0, 'b']]);
  });

  it('builds objects as JSON.parse does: __proto__ is an own key, not the prototype', () => {
    const parsed = value('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(parsed).toEqual(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'));
  });

  it('gives undefined while there is nothing, and for text that no JSON text begins with', () => {
    for (const text of ['', '   ', '-']) expect(parsePartialJson(text), JSON.stringify(text)).toBeUndefined();
    for (const text of [
      '{"a" 1',
      '[1,]',
      '[1 2',
      '{,',
      '01',
      '{"a": 1} x',
      'nope',
      '"a\u0001',
      '"\\x',
      '"\\u12g4',
      '1.e5',
    ])
      expect(parsePartialJson(text), JSON.stringify(text)).toBeUndefined();
  });

  it(`refuses nesting beyond ${MAX_PARTIAL_DEPTH} levels rather than exhausting the stack`, () => {
    expect(value('['.repeat(MAX_PARTIAL_DEPTH))).toBeDefined();
    expect(parsePartialJson('['.repeat(MAX_PARTIAL_DEPTH + 1))).toBeUndefined();
    expect(parsePartialJson('['.repeat(100_000))).toBeUndefined();
  });
});
