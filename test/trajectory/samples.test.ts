import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  diffTrajectories,
  loadTrajectory,
  parseTrajectory,
  samplesOf,
  serializeTrajectory,
  type Trajectory,
} from '../../src/index.js';
import { withSamples } from '../../src/trajectory/samplesOf.js';
import { prepareTrajectory } from '../../src/trajectory/trajectoryFile.js';

const base = loadTrajectory('trajectories/tool-loop.yaml');

/** A sample of `base` that differs in its final text and clock, as another run of the same input would. */
const sampleSaying = (text: string, clock?: string[]): Trajectory => {
  const turns = structuredClone(base.turns);
  const last = turns.at(-1)!;
  last.response.content = [{ text }];
  const { clock: _none, ...rest } = base;
  return { ...rest, turns, ...(clock === undefined ? {} : { clock }) };
};

describe('samplesOf and withSamples', () => {
  it('gives a file of one sample as itself, and one sample back as the file', () => {
    expect(samplesOf(base)).toEqual([base]);
    expect(withSamples([base])).toEqual(base);
  });

  it('round-trips any list of samples through a file, in order (property)', () => {
    const moment = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true });
    const sample = fc.record({
      text: fc.string({ minLength: 1, maxLength: 40 }),
      clock: fc.option(
        fc.array(
          moment.map((d) => d.toISOString()),
          { maxLength: 3 },
        ),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 5 }), (specs) => {
        const samples = specs.map((s) => sampleSaying(s.text, s.clock));
        const file = parseTrajectory(serializeTrajectory(withSamples(samples)), 'samples.yaml');
        const back = samplesOf(file);
        expect(back).toHaveLength(samples.length);
        back.forEach((sample, i) => {
          expect(sample.turns).toEqual(samples[i]!.turns);
          expect(sample.clock).toEqual(samples[i]!.clock);
          expect(sample.input).toEqual(base.input);
          expect(sample.samples).toBeUndefined();
        });
      }),
      { numRuns: 60 },
    );
  });

  it('redacts every sample when a file is prepared for saving', () => {
    const file = withSamples([sampleSaying('first'), sampleSaying('card 4111-1111-1111-1111'), sampleSaying('x')]);
    const prepared = prepareTrajectory(file, { redactions: [{ pattern: /\d{4}-\d{4}-\d{4}-\d{4}/g }] });
    const texts = samplesOf(prepared).map((s) => JSON.stringify(s.turns.at(-1)!.response.content));
    expect(texts[1]).not.toContain('4111');
    expect(texts[1]).toContain('[REDACTED]');
  });

  it('diffs sample by sample, naming the sample', () => {
    const before = withSamples([sampleSaying('a'), sampleSaying('b')]);
    const after = withSamples([sampleSaying('a'), sampleSaying('c'), sampleSaying('d')]);
    const wheres = diffTrajectories(before, after).map((c) => c.where);
    expect(wheres).toEqual([`sample 2, turn ${base.turns.length}`, 'sample 3']);
    expect(diffTrajectories(before, before)).toEqual([]);
    // One sample: the places read as they always have.
    expect(diffTrajectories(sampleSaying('a'), sampleSaying('b')).map((c) => c.where)).toEqual([
      `turn ${base.turns.length}`,
    ]);
  });
});
