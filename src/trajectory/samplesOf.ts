import type { RecordedSample, Trajectory } from './types.js';

/**
 * Every sample a file holds, each as a trajectory of its own: the file itself (its first sample), then each of its
 * `samples` with the file's header around it. A file recorded once has one sample.
 */
export function samplesOf(trajectory: Trajectory): Trajectory[] {
  const { samples, ...first } = trajectory;
  if (samples === undefined) return [first];
  const { clock: _clock, conversations: _conversations, ...header } = first;
  return [first, ...samples.map((sample) => ({ ...header, ...sample }) as Trajectory)];
}

/**
 * The inverse of samplesOf: one file holding these samples (at least one), in this order, under the first's header.
 * The samples are runs of the same agent on the same input: only their clock, turns, summary and conversations are
 * kept past the first.
 */
export function withSamples(samples: readonly Trajectory[]): Trajectory {
  const [first, ...others] = samples.map(({ samples: _none, ...sample }) => sample);
  if (others.length === 0) return first!;
  return { ...first!, samples: others.map(sampleOf) };
}

function sampleOf(run: Trajectory): RecordedSample {
  const { clock, turns, summary, conversations } = run;
  return {
    ...(clock === undefined ? {} : { clock }),
    turns,
    summary,
    ...(conversations === undefined ? {} : { conversations }),
  };
}
