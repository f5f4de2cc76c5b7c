import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldStep, fieldPathProblem, parseFieldPath, valuesAt } from '../../src/json/fieldPath.js';

/** Field paths: which strings are valid (against a grammar written independently), and round trips. */

/** The grammar as a regular expression: a key or [], then any number of .key or []. */
const GRAMMAR = /^(?:[^.[\]]+|\[\])(?:\.[^.[\]]+|\[\])*$/;

const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !/[.[\]]/.test(k));
const step: fc.Arbitrary<FieldStep> = fc.oneof(
  key.map((k) => ({ key: k })),
  fc.constant({ each: true as const }),
);

function written(steps: FieldStep[]): string {
  return steps.map((s, i) => ('each' in s ? '[]' : i === 0 ? s.key : `.${s.key}`)).join('');
}

describe('field paths, generated', () => {
  it('accepts exactly the strings of the grammar', () => {
    const pathLike = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.array(fc.constantFrom('a', 'b', '.', '[', ']', '[]', 'k'), { maxLength: 8 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(pathLike, (path) => {
        expect(fieldPathProblem(path) === undefined).toBe(GRAMMAR.test(path));
      }),
      { numRuns: 1000 },
    );
  });

  it('parses a written path back to its steps, and reaches a value placed at it, at its concrete path', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, fc.nat(3), fc.nat(3)), { minLength: 1, maxLength: 6 }),
        fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null)),
        (placed, leaf) => {
          const steps = placed.map(([s]) => s);
          const path = written(steps);
          expect(parseFieldPath(path)).toEqual({ steps });
          // Build a value, inside out: arrays of `index + extra + 1` empty objects, the value at `index`.
          let value: unknown = leaf;
          for (let i = placed.length - 1; i >= 0; i--) {
            const [s, index, extra] = placed[i]!;
            if ('each' in s) {
              const items: unknown[] = Array.from({ length: index + extra + 1 }, () => ({}));
              items[index] = value;
              value = items;
            } else {
              const holder = {};
              Object.defineProperty(holder, s.key, { value, enumerable: true, writable: true, configurable: true });
              value = holder;
            }
          }
          const at = placed
            .map(([s, index], i) => ('each' in s ? `[${index}]` : i === 0 ? s.key : `.${s.key}`))
            .join('');
          const reached = valuesAt(value, path);
          expect(reached.filter((r) => r.at === at)).toEqual([{ at, value: leaf }]);
          // Only the other elements of a last '[]' are reached besides: empty objects.
          for (const other of reached.filter((r) => r.at !== at)) expect(other.value).toEqual({});
        },
      ),
      { numRuns: 300 },
    );
  });
});
