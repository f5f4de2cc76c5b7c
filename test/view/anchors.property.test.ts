import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Anchors } from '../../src/view/anchors.js';

// The page's ids are unique whatever call ids its files hold: repeated ones, ones that end in the suffix the page
// adds (`a-2`), and ones that differ only in characters an id may not hold (`a.b`, `a_b`).
const callId = fc.oneof(
  fc.constantFrom('a', 'a-2', 'a-3', 'a_b', 'a.b', 'a-2-2', 'b'),
  fc.stringMatching(/^[a-c.\-_2-3]{1,5}$/),
);

describe('Anchors', () => {
  it('gives distinct calls distinct anchors, and the same call the same one', () => {
    fc.assert(
      fc.property(
        fc.array(callId, { maxLength: 40 }),
        fc.array(fc.constantFrom('side-1', 'call-a'), { maxLength: 3 }),
        (ids, bases) => {
          const anchors = new Anchors();
          const calls = ids.map((id) => ({ id }));
          const given = [...bases.map((base) => anchors.unique(base)), ...calls.map((call) => anchors.call(call))];
          expect(new Set(given).size).toBe(given.length);
          expect(calls.map((call) => anchors.call(call))).toEqual(given.slice(bases.length));
          for (const anchor of given) expect(anchor).toMatch(/^[A-Za-z0-9_-]+$/);
        },
      ),
    );
  });
});
