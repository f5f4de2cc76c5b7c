import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { isBacktrackSafe } from '../../src/tools/schema/backtrackSafe.js';

// Real patterns from published tool schemas and JSON Schema documents (identifiers, ISO dates,
// UUIDs, E.164 phone numbers, currency codes, a simple email shape).
const SAFE = [
  '^[A-Za-z0-9_-]+$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  '^\\+?[1-9]\\d{1,14}$',
  '^[A-Z]{3}$',
  '^[^@\\s]+@[^@\\s]+$',
  '^sk_[a-z]+$',
  '^[a-z][a-z0-9-]{0,62}$',
];

// Patterns whose backtracking can blow up (or whose shape is not proven): left to RE2JS.
const NOT_PROVEN = [
  '^(a+)+$', // nested quantifier
  '^a*a*$', // two loops over the same character
  '^[a-z]*[a-z0-9]*x$', // overlapping loops
  '^\\d+\\.?\\d*$', // an optional character between overlapping loops
  '^.*x.*$', // dot overlaps what follows
  'a+b', // unanchored: every start position is tried
  '^a+?$', // lazy
  '^(ab|a)c$', // a group, alternation
  '^a|b$', // alternation
  '^\\bword$', // an assertion
  '^a{1001}$', // past RE2's repeat limit, refused either way
];

describe('isBacktrackSafe: which patterns run on V8 engine', () => {
  it.each(SAFE)('proves %s', (pattern) => expect(isBacktrackSafe(pattern)).toBe(true));
  it.each(NOT_PROVEN)('leaves %s to the linear-time engine', (pattern) => expect(isBacktrackSafe(pattern)).toBe(false));

  const atoms = ['a', 'b', '\\d', '[a-c]', '[^a]', '.', '\\.', '\\s', '[x-z0-9]'];
  const quantifiers = ['', '?', '*', '+', '{2}', '{1,3}', '{2,}'];
  const sequences = fc.array(fc.tuple(fc.constantFrom(...atoms), fc.constantFrom(...quantifiers)), {
    minLength: 1,
    maxLength: 6,
  });
  const proven = sequences.map((items) => `^${items.map(([atom, q]) => atom + q).join('')}$`).filter(isBacktrackSafe);

  it('property: a proven pattern means on V8 exactly what it means on RE2', () => {
    fc.assert(
      fc.property(
        proven,
        fc.array(fc.constantFrom('a', 'b', 'c', '1', '.', ' ', 'x', '\n'), { maxLength: 12 }),
        (pattern, chars) => {
          const text = chars.join('');
          expect(new RegExp(pattern, 'u').test(text)).toBe(RE2JS.compile(pattern).matcher(text).find());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it(
    'property: a proven pattern answers a long text built to make a backtracker retry, every time (a hang guard, ' +
      'no timing)',
    () => {
      fc.assert(
        fc.property(proven, fc.constantFrom('a', 'b', '1', '.', ' ', 'x'), (pattern, c) => {
          const text = `${c.repeat(20_000)}!`;
          expect(typeof new RegExp(pattern, 'u').test(text)).toBe('boolean');
        }),
        { numRuns: 200 },
      );
    },
  );
});
