import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../src/json/firstDifference.js';
import { VerifiedHeader } from '../../src/replay/VerifiedHeader.js';

/**
 * A replay compares a request's header (all of it but its conversation) once per change (VerifiedHeader). Held here
 * to the comparison it skips, the reference: the whole recorded header against the whole live one on every turn.
 * The live request changes as a run's may between turns: rebuilt as the runtime builds it (a new request, a new tool
 * list and new small mappings of the same values), a part given another value or an equal copy, a key added,
 * dropped or moved, the recorded header switched (a handoff); a value once sent is never edited in place, which is
 * what the rule relies on.
 */
const word = fc.constantFrom('auto', 'any', 'claude-a', 'claude-b', 'Look records up.', 'Be brief.');
const tool = fc.record({
  name: fc.constantFrom('lookup', 'refund'),
  digest: fc.constantFrom('sha256:01', 'sha256:02'),
});
/** A part's value: a word, a number, absent (undefined), a list of tools, a small mapping. */
const part = fc.oneof(
  word,
  fc.integer({ min: 0, max: 3 }),
  fc.constant(undefined),
  fc.array(tool, { maxLength: 3 }),
  fc.record({ type: word }, { requiredKeys: [] }),
);
const KEYS = ['model', 'maxTokens', 'system', 'tools', 'toolChoice', 'thinking'] as const;
const header = fc.record(Object.fromEntries(KEYS.map((key) => [key, part])) as Record<string, typeof part>);

const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('rebuilt' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('same' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom(...KEYS), value: part }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('copied' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropped' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('moved' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switched' as const) }) },
);

/** A new request of the same values, as the runtime builds one each turn: lists and mappings one level anew. */
function rebuilt(request: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    copy[key] = Array.isArray(value) ? [...value] : typeof value === 'object' && value !== null ? { ...value } : value;
  }
  return copy;
}

describe('VerifiedHeader', () => {
  it('gives the verdict of the whole comparison, turn after turn, and skips it when nothing changed', () => {
    let skipped = 0;
    fc.assert(
      fc.property(header, header, fc.array(step, { minLength: 1, maxLength: 25 }), (first, second, steps) => {
        const recorded = [first, second];
        let which = 0;
        // The live request starts as the first recorded header (a copy) with a conversation.
        let request: Record<string, unknown> = { ...structuredClone(first), messages: [] };
        const verified = new VerifiedHeader();
        for (const change of steps) {
          if (change.kind === 'rebuilt') request = rebuilt(request);
          else if (change.kind === 'set') request = { ...request, [change.key]: change.value };
          else if (change.kind === 'copied')
            request = { ...request, [change.key]: structuredClone(request[change.key]) };
          else if (change.kind === 'dropped') {
            const { [change.key]: _dropped, ...rest } = request;
            request = rest;
          } else if (change.kind === 'moved' && Object.hasOwn(request, change.key)) {
            const { [change.key]: value, ...rest } = request;
            request = { ...rest, [change.key]: value };
          } else if (change.kind === 'switched') which = 1 - which;
          const expected = recorded[which]!;
          const { messages: _conversation, ...live } = request;
          const reference = firstDifference(expected, live);
          let compared = false;
          const found = verified.compare(expected, request, () => {
            compared = true;
            return firstDifference(expected, live);
          });
          expect(found).toEqual(reference);
          if (!compared) skipped++;
        }
      }),
      { numRuns: 500 },
    );
    // The rule is used, not only the comparison behind it.
    expect(skipped).toBeGreaterThan(100);
  });

  it('compares again when a recorded header, a key or a value is not the one found equal', () => {
    const verified = new VerifiedHeader();
    const tools = [{ name: 'lookup', digest: 'sha256:01' }];
    const expected = { model: 'claude-a', tools };
    let comparisons = 0;
    const compare = (recorded: object, request: Record<string, unknown>) =>
      verified.compare(recorded, request, () => {
        comparisons++;
        const { messages: _conversation, ...live } = request;
        return firstDifference(recorded, live);
      });
    expect(compare(expected, { model: 'claude-a', tools: [...tools], messages: [] })).toBeUndefined();
    expect(compare(expected, { model: 'claude-a', tools: [...tools], messages: [1] })).toBeUndefined();
    expect(comparisons).toBe(1);
    expect(compare(expected, { model: 'claude-b', tools })?.path).toBe('model');
    expect(compare(expected, { model: 'claude-a', tools: [{ ...tools[0]!, digest: 'sha256:02' }] })?.path).toBe(
      'tools[0].digest',
    );
    expect(compare({ ...expected }, { model: 'claude-a', tools })).toBeUndefined();
    expect(compare(expected, { tools, model: 'claude-a' })).toBeUndefined();
    expect(comparisons).toBe(5);
  });
});
