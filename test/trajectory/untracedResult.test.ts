import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTrajectory, serializeTrajectory } from '../../src/index.js';

// The shipped recording in which argument provenance refused a call (recorded by the runtime).
const recorded = parseTrajectory(readFileSync('trajectories/provenance-traced.yaml', 'utf8'));
const blockedAt = recorded.turns.findIndex((turn) => turn.results?.some((result) => result.untraced !== undefined));

describe('a result blocked by argument provenance', () => {
  it('is recorded with the untraced argument, its value and where the value was found', () => {
    expect(recorded.turns[blockedAt]!.results![0]).toMatchObject({
      outcome: 'blocked',
      rule: 'taint',
      source: 'fetch_page',
      untraced: { argument: 'to', value: '99-1234-5678', foundIn: ['fetch_page'] },
    });
  });

  it('keeps them through the file, for any argument, a string or a number as value, and any tools', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.oneof(
          fc.string(),
          fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
        ),
        fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
        (argument, value, foundIn) => {
          const trajectory = structuredClone(recorded);
          trajectory.turns[blockedAt]!.results![0]!.untraced = { argument, value, foundIn };
          const read = parseTrajectory(serializeTrajectory(trajectory));
          expect(read.turns[blockedAt]!.results![0]!.untraced).toEqual({ argument, value, foundIn });
        },
      ),
      { numRuns: 60 },
    );
  });
});
