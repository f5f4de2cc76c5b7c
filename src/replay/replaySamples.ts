import { samplesOf } from '../trajectory/samplesOf.js';
import { loadTrajectory, recordFirst } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';
import type { ReplaySettings } from './replaySettings.js';
import { replayRun } from './replayRun.js';
import { checkRuleFits, concludeSamples, judgeSample } from './sampleRuns.js';
import type { TrajectoryRun, TrajectoryRunOptions } from './trajectoryRunOptions.js';

/** The file, absolute and as messages name it, and the command that re-records it. */
type Where = { file: string; shown: string; rerecord: string };

/**
 * Replays every sample a file holds, each on its own as a file of one sample, with the test's `check` after each;
 * the file passes when the rule in force (`pass`) holds. A file of one sample replays as it always has: its
 * divergence or its check's failure is thrown as it is.
 */
export async function replaySamples(
  options: TrajectoryRunOptions,
  where: Where,
  settingsFor: (t: Trajectory) => ReplaySettings,
): Promise<TrajectoryRun> {
  const trajectory = options.trajectory ?? loadTrajectory(where.file, recordFirst(where.rerecord));
  const settings = settingsFor(trajectory);
  const samples = samplesOf(trajectory);
  checkRuleFits(settings.pass, samples.length, where.shown);
  const replay = (sample: Trajectory) => replayRun({ ...options, trajectory: sample }, where, () => settings);
  if (samples.length === 1) {
    const run = await replay(trajectory);
    await options.check?.(run.result, { sample: 1, of: 1 });
    return run;
  }
  const runs = new Map<number, TrajectoryRun>();
  const verdicts = [];
  for (const [i, sample] of samples.entries()) {
    const at = { sample: i + 1, of: samples.length };
    const run = async () => {
      const replayed = await replay(sample);
      runs.set(at.sample, replayed);
      return { result: replayed.result, trajectory: sample };
    };
    verdicts.push(await judgeSample(at, () => sample, run, options.check));
  }
  const chosen = concludeSamples(where.shown, settings.pass, verdicts);
  const run = runs.get(chosen.sample)!;
  return { ...run, trajectory, samples: verdicts };
}
