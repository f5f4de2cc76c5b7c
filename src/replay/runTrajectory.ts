import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { Trajectory } from '../trajectory/types.js';
import { loadProject } from './projectConfig.js';
import { recordRun, requireInput } from './recordRun.js';
import { resolveReplaySettings, type ReplaySettings } from './replaySettings.js';
import { replaySamples } from './replaySamples.js';
import { outputOption, type TrajectoryRun, type TrajectoryRunOptions } from './trajectoryRunOptions.js';

/**
 * Runs an agent against a trajectory file in the mode in force: replays it offline, checking
 * every request, or runs live and records it (atomically, redacted, scanned for secrets).
 * Settings come from the options, then the project's legate.config.ts, then the file, then
 * the defaults (see resolveReplaySettings). `legate replay` runs each file through it, with
 * its `project`, `cwd` and `runner`.
 */
export async function runTrajectory(options: TrajectoryRunOptions): Promise<TrajectoryRun> {
  const resolved = await resolveRun(options);
  const { settings, settingsFor, file, shown } = resolved;
  const run = ownFileOptions(options, settings);
  if (settings.mode === 'replay' || (settings.mode === 'auto' && (run.trajectory !== undefined || existsSync(file)))) {
    return replaySamples(run, { file, shown, rerecord: settings.rerecord }, settingsFor);
  }
  // A fork asked for passes through as a fork: its first turns served, the rest live, nothing written.
  if (settings.mode === 'passthrough' && settings.fork?.from !== 'forkAt') {
    const result = await options
      .agent(settings.transport())
      .run(requireInput(options, shown, undefined), outputOption(options));
    return { mode: 'passthrough', file, result };
  }
  return recordRun(run, { ...resolved, ...parentGiven(options, settings) }, { write: settings.mode !== 'passthrough' });
}

/**
 * Records a run to its file whatever mode is in force (`LEGATE_MODE` included), with the same
 * settings otherwise: for a file that is new by construction, such as a fuzz finding, where a
 * replay would have nothing to replay, or a fork `legate fork` makes.
 */
export async function recordTrajectory(options: Omit<TrajectoryRunOptions, 'mode'>): Promise<TrajectoryRun> {
  const resolved = await resolveRun(options);
  const { settings } = resolved;
  return recordRun(
    ownFileOptions(options, settings),
    { ...resolved, ...parentGiven(options, settings) },
    { write: true },
  );
}

/**
 * The options as they apply to the run's own file: for a fork asked for (`forkAt`), `trajectory` is its parent, read
 * already (see resolveRun), not what the fork's file holds.
 */
function ownFileOptions(options: TrajectoryRunOptions, settings: ReplaySettings): TrajectoryRunOptions {
  if (settings.fork?.from !== 'forkAt' || options.trajectory === undefined) return options;
  const { trajectory: _parent, ...own } = options;
  return own;
}

/** A fork's parent, when the caller read it already (`trajectory` with `forkAt`). */
function parentGiven(options: TrajectoryRunOptions, settings: ReplaySettings): { parent?: Trajectory } {
  return settings.fork?.from === 'forkAt' && options.trajectory !== undefined ? { parent: options.trajectory } : {};
}

/**
 * The settings and the file, absolute and as shown; `settingsFor` gives the settings once the file is read (its own
 * fields count). Settings given already resolved are used as they are: nothing is loaded or resolved again.
 */
async function resolveRun(
  options: TrajectoryRunOptions,
): Promise<{ settings: ReplaySettings; settingsFor: (t: Trajectory) => ReplaySettings; file: string; shown: string }> {
  if (options.settings !== undefined) {
    const { settings } = options;
    const file = settings.file ?? options.file;
    return { settings, settingsFor: () => settings, file, shown: settings.shown ?? file };
  }
  const cwd = options.cwd ?? process.cwd();
  const config = options.config === undefined ? {} : { config: options.config };
  const project = options.project ?? (await loadProject({ cwd, ...config }));
  const runner = options.runner === undefined ? {} : { runner: options.runner };
  const settingsFor = (trajectory?: Trajectory) =>
    resolveReplaySettings({
      given: options,
      project,
      cwd,
      ...runner,
      ...(trajectory === undefined ? {} : { trajectory }),
    });
  // A trajectory given already read has its fields counted at once: the settings are resolved once.
  const settings = settingsFor(options.trajectory);
  const file = settings.file!;
  // A fork asked for runs over its own file, `out`; `file` is its parent.
  const named = settings.fork?.from === 'forkAt' ? options.out! : options.file;
  const shown = isAbsolute(named) ? named : relative(cwd, file) || file;
  return { settings, settingsFor: options.trajectory === undefined ? settingsFor : () => settings, file, shown };
}
