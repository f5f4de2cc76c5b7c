import { expect } from 'vitest';
import type { AgentResult } from '../runtime/agentResult.js';
import { runTrajectory, type AgentFactory, type TrajectoryRunOptions } from '../recording/runTrajectory.js';

export type ReplayTrajectoryOptions = Omit<TrajectoryRunOptions, 'file' | 'agent'>;

/**
 * The CI regression helper: replays a trajectory against today's code and returns the result
 * for assertions. Under `vitest -u` (or `LEGATE_MODE=record`) it re-records the file live and
 * reports what changed; under CI, a missing file fails with the command that records it.
 */
export async function replayTrajectory(agent: AgentFactory, file: string, options: ReplayTrajectoryOptions = {}): Promise<AgentResult> {
  const update = process.env.LEGATE_MODE === undefined && isUpdatingSnapshots();
  const run = await runTrajectory({ ...options, file, agent, ...(update ? { mode: 'record' as const } : {}) });
  return run.result;
}

/** True when vitest runs with `-u`: the suite is asked to bring its recorded expectations up to date. */
function isUpdatingSnapshots(): boolean {
  const state = expect.getState().snapshotState as unknown as { _updateSnapshot?: string } | undefined;
  return state?._updateSnapshot === 'all';
}
