import { ModelOverrideTransport } from '../transport/ModelOverrideTransport.js';
import type { Trajectory } from '../trajectory/types.js';
import type { AgentFactory } from './config.js';
import { recordedApprovals } from './recordedApprovals.js';
import type { ReplaySettings } from './replaySettings.js';
import { recordTrajectory } from './runTrajectory.js';
import type { TrajectoryRun, TrajectoryRunOptions } from './trajectoryRunOptions.js';

export interface RerecordOptions {
  /** The old recording, already read: its input, name and description are recorded again, live. */
  from: Trajectory;
  /**
   * The new file: absolute, or relative to the project root. It is written whatever the mode (`LEGATE_MODE`
   * included); the old file is only read.
   */
  file: string;
  /** The agent that runs the input again: the config's factory for the old file's `agent`. */
  agent: AgentFactory;
  /** The settings resolved for the new file (resolveReplaySettings): its live transport, redactions and secrets. */
  settings: ReplaySettings;
  /**
   * The model that answers instead of the one the agent asks for: every request, sub-agents' too, goes out with
   * this model (see ModelOverrideTransport). The file records the requests as the agent made them, so it replays
   * with the agent as it is; its `model:` and each response's `model` say which model answered.
   */
  model?: string;
  /** As runTrajectory's `report`: told what the recording should know (a redaction that changed a call's input). */
  report?: TrajectoryRunOptions['report'];
}

/**
 * Records a trajectory's input again, live, into another file (`legate rerecord`): the old file's agent (from the
 * config), input, name and description, and, where the old run stopped for approval, the decisions it recorded,
 * applied by tool in order (see recordedApprovals). The live transport is the settings' (the config's, else the
 * Anthropic API), behind `model` when one is given.
 */
export async function rerecordTrajectory(options: RerecordOptions): Promise<TrajectoryRun> {
  const { from, model, settings } = options;
  const live = settings.transport;
  const transport = model === undefined ? live : () => new ModelOverrideTransport(live(), model);
  const approve = recordedApprovals(from);
  return recordTrajectory({
    file: options.file,
    agent: options.agent,
    settings: { ...settings, transport },
    input: from.input,
    name: from.name,
    ...(from.description === undefined ? {} : { description: from.description }),
    ...(approve === undefined ? {} : { approve }),
    ...(options.report === undefined ? {} : { report: options.report }),
  });
}
