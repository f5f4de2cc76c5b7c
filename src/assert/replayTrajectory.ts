import { relative } from 'node:path';
import { expect } from 'vitest';
import type { AgentResult } from '../runtime/agentResult.js';
import { legateMode } from '../recording/mode.js';
import { isUpdatingSnapshots } from '../recording/snapshotUpdate.js';
import { runTrajectory } from '../replay/runTrajectory.js';
import type { AgentFactory } from '../replay/config.js';
import type { TrajectoryRunOptions } from '../replay/trajectoryRunOptions.js';

export type ReplayTrajectoryOptions = Omit<TrajectoryRunOptions, 'file' | 'agent' | 'runner'>;

/**
 * The CI regression helper: replays a trajectory against today's code and returns the result
 * for assertions. Under `vitest -u` it re-records the file live and reports what changed, unless
 * `LEGATE_MODE` is set (it wins; `LEGATE_MODE=record` re-records too); under CI, a missing file
 * fails with the command that records it. Settings resolve as for runTrajectory. A file of several samples
 * replays each one: give the test body as `check` (`check: (result) => expect(result).toBeComplete()`), run on
 * each sample's result, and the rule as `pass` (default: every sample); the result returned is the first passing
 * sample's.
 */
export async function replayTrajectory(
  agent: AgentFactory,
  file: string,
  options: ReplayTrajectoryOptions = {},
): Promise<AgentResult> {
  const update = isUpdatingSnapshots(expect.getState());
  const testPath = expect.getState().testPath;
  const testFile = testPath === undefined ? {} : { testFile: relative(process.cwd(), testPath) || testPath };
  const runner = { kind: 'vitest' as const, update: true, ...testFile };
  const mode = update && legateMode() === undefined ? { mode: 'record' as const } : {};
  const run = await runTrajectory({ ...options, file, agent, ...mode, runner });
  return run.result;
}
