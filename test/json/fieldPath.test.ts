import { describe, expect, it } from 'vitest';
import { fieldPathProblem, valuesAt } from '../../src/json/fieldPath.js';

/** Field paths: keys joined by '.', '[]' for every element; what is wrong with a bad one, and what one reaches. */

describe('fieldPathProblem', () => {
  it.each(['recipient', 'to.iban', 'recipients[]', '[].subject', 'transactions[].subject', '[][]', 'a[][].b', '[]'])(
    'accepts %s',
    (path) => {
      expect(fieldPathProblem(path)).toBeUndefined();
    },
  );

  it.each([
    ['a..b', "'a..b' has an empty key (two dots)"],
    ['.a', "'.a' starts with '.': begin with a key or '[]'"],
    ['a.', "'a.' ends with '.': a key must follow it"],
    ['', "a field path cannot be empty: name a key such as 'recipient'"],
    ['a[0]', "'a[0]' has a '[' not followed by ']': '[]' means every element; an index such as '[0]' is not supported"],
    ['a[', "'a[' has a '[' not followed by ']': '[]' means every element; an index such as '[0]' is not supported"],
    ['a]', "'a]' has a ']' with no '[' just before it"],
    ['a[]b', "'a[]b' has a key right after '[]': write '.' between them, as in '[].b'"],
    ['a.[]', "'a.[]' has '.' before '[]': write '[]' right after the key, as in 'recipients[]'"],
  ])('says what is wrong with %j', (path, problem) => {
    expect(fieldPathProblem(path)).toBe(problem);
  });

  it('says what arrived when the path is not a string', () => {
    expect(fieldPathProblem(3)).toBe(
      "a field path is a string such as 'to.iban' or 'recipients[]', but it was the number 3",
    );
    expect(fieldPathProblem(undefined)).toMatch(/but it was undefined$/);
  });
});

describe('valuesAt', () => {
  const payment = {
    recipient: 'GB29',
    to: { iban: 'DE89', name: 'Ann' },
    recipients: ['A', 'B'],
    transactions: [{ subject: 'rent' }, { amount: 3 }, { subject: 'gift' }],
  };

  it('reaches a key, a nested key, every element, and keys of every element, with concrete paths', () => {
    expect(valuesAt(payment, 'recipient')).toEqual([{ at: 'recipient', value: 'GB29' }]);
    expect(valuesAt(payment, 'to.iban')).toEqual([{ at: 'to.iban', value: 'DE89' }]);
    expect(valuesAt(payment, 'recipients[]')).toEqual([
      { at: 'recipients[0]', value: 'A' },
      { at: 'recipients[1]', value: 'B' },
    ]);
    expect(valuesAt(payment, 'transactions[].subject')).toEqual([
      { at: 'transactions[0].subject', value: 'rent' },
      { at: 'transactions[2].subject', value: 'gift' },
    ]);
    expect(valuesAt([{ subject: 'x' }], '[].subject')).toEqual([{ at: '[0].subject', value: 'x' }]);
    expect(valuesAt(payment, 'to')).toEqual([{ at: 'to', value: payment.to }]);
  });

  it('reaches nothing through a missing key, a key of a non-object, or [] over a non-array', () => {
    expect(valuesAt(payment, 'amount')).toEqual([]);
    expect(valuesAt(payment, 'recipient[]')).toEqual([]);
    expect(valuesAt(payment, 'to[]')).toEqual([]);
    expect(valuesAt(payment, 'recipients.length')).toEqual([]);
    expect(valuesAt(payment, 'recipient.length')).toEqual([]);
    expect(valuesAt(null, 'a')).toEqual([]);
    expect(valuesAt('text', '[]')).toEqual([]);
  });

  it('reads own keys only: a name of Object.prototype reaches nothing', () => {
    expect(valuesAt({}, 'constructor')).toEqual([]);
    expect(valuesAt({}, '__proto__')).toEqual([]);
    expect(valuesAt(JSON.parse('{"__proto__": "x"}'), '__proto__')).toEqual([{ at: '__proto__', value: 'x' }]);
  });

  it('refuses an invalid path with its problem', () => {
    expect(() => valuesAt({}, 'a..b')).toThrow(new TypeError("valuesAt: 'a..b' has an empty key (two dots)"));
  });
});
