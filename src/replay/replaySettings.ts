import { isAbsolute, relative, resolve } from 'node:path';
import { AnthropicTransport } from '../transport/anthropic/AnthropicTransport.js';
import type { Transport } from '../transport/transport.js';
import { liveTransportOf, type LiveTransport } from '../recording/liveTransport.js';
import { DEFAULT_MATCH_LEVEL, type MatchLevel } from '../trajectory/matchLevel.js';
import type { Redaction } from '../trajectory/redaction.js';
import { rerecordCommand, type ReplayRunner } from './rerecordCommand.js';
import type { Trajectory } from '../trajectory/types.js';
import { checkRunTools, DEFAULT_RUN_TOOLS, type RunTools } from './runToolsPolicy.js';
import { legateMode, resolveMode, type RecordingMode } from '../recording/mode.js';
import { configShown, type Project } from './projectConfig.js';
import { checkSampleRule, checkSamples, DEFAULT_SAMPLE_RULE, type SampleRule } from './sampleRule.js';
import { forkSettingsOf, type ForkAt, type ForkSettings } from './forkSettings.js';

/** The settings given for one run: a command line's flags, or the options passed in code. */
export interface GivenSettings {
  /** The trajectory file: absolute, or relative to the project root (see {@link Project}). */
  file?: string;
  mode?: RecordingMode;
  match?: MatchLevel;
  redactions?: readonly Redaction[];
  secrets?: readonly (RegExp | string)[];
  runTools?: RunTools;
  transport?: LiveTransport;
  rerecord?: string;
  samples?: number;
  pass?: SampleRule;
  /** Fork `file` at this turn (and sample) into `out` (see ForkAt). */
  forkAt?: ForkAt;
  /** The file a fork is written to: absolute, or relative to the project root, as `file` is. */
  out?: string;
}

export interface ReplaySettingsInput {
  /** The first layer: a command line's flags or the options in code. Default: none given. */
  given?: GivenSettings;
  /** The project, with its config if it has one (see loadProject). */
  project: Project;
  /** The file's own fields, once it has been read (absent for a file not read or not there). */
  trajectory?: Trajectory;
  /**
   * Who runs the replay, which decides the re-record command. Default: `vitest` (without `-u`)
   * under vitest, else `code`.
   */
  runner?: ReplayRunner;
  /** Where the user is: paths in messages are shown relative to it. Default: `process.cwd()`. */
  cwd?: string;
  /** How messages name the file (a command escapes what a terminal would act on). Default: relative to `cwd`. */
  shown?: string;
  env?: NodeJS.ProcessEnv;
  /** The mode when nothing sets one (see resolveMode): `auto` in code, `replay` for `legate replay`. */
  defaultMode?: RecordingMode;
}

/** Every replay setting, resolved. */
export interface ReplaySettings {
  /** The trajectory file, absolute (absent when none was given). */
  file?: string;
  /** The file as messages name it: relative to where the user is, unless the caller named it (absent with `file`). */
  shown?: string;
  /** The project's trajectory folder, absolute. */
  folder: string;
  mode: RecordingMode;
  match: MatchLevel;
  /** The config's, then the given ones. */
  redactions: Redaction[];
  /** The config's, then the given ones. */
  secrets: (RegExp | string)[];
  /** Which tools run for real in a replay (a file's `serve:` adds tools always served). */
  runTools: RunTools;
  /** The live transport for one run, to record and for passthrough: the setting's, or what its function makes. */
  transport: () => Transport;
  /** How to re-record the file, for divergence and missing-file messages. */
  rerecord: string;
  /** How many samples a recording makes. */
  samples: number;
  /** When a file of several samples passes. */
  pass: SampleRule;
  /**
   * The fork a recording makes: the one `forkAt` asks for (`file` is then the fork's own file, `out`), else the one
   * the file records (`fork:`), which recording it again makes again. Absent: the run is no fork.
   */
  fork?: ForkSettings;
}

/**
 * Resolves every replay setting, each from the first layer that sets it:
 *
 * | setting | 1. given (flag / option) | 2. legate.config.ts | 3. the file | 4. default |
 * |---|---|---|---|---|
 * | match level | `--match`, `match` | `match` | `match:` | `exact` |
 * | tools run in replay | `--run-tools`, `runTools` | `runTools` | (`serve:` adds) | `safe` |
 * | live transport | `transport` | `transport` | | `AnthropicTransport` |
 * | re-record command | `rerecord` | `rerecord(file)` | | built for the context |
 * | samples to record | `--samples`, `samples` | `samples` | | 1 |
 * | rule for samples | `--pass`, `pass` | `pass` | | `all` |
 * | trajectory folder | paths given | `trajectories` | | `trajectories` |
 * | fork (when recording) | `forkAt` and `out` | | `fork:` | none |
 *
 * Redactions and secret patterns add up instead, the config's first: a project-wide one cannot
 * be dropped by one run. The mode has its own order, `LEGATE_MODE` first (see resolveMode). A
 * relative trajectory path resolves against the project root (the config's folder), not the
 * working directory. A fork asked for (`forkAt`) runs over its own file, `out`: `file` names its parent; a file
 * that is a fork is forked again from its parent when it is recorded again (see forkSettingsOf). Documented in
 * docs/trajectory-format.md, "Replay settings".
 *
 * `runTrajectory`, `replayTrajectory` and the `legate` command all resolve through it; call it
 * to learn what a replay would use (e.g. the project's trajectory folder:
 * `resolveReplaySettings({ project: await loadProject() }).folder`).
 */
export function resolveReplaySettings(input: ReplaySettingsInput): ReplaySettings {
  const { given = {}, project, trajectory } = input;
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const runner = input.runner ?? defaultRunner(env);
  const config = project.config;
  const inProject = (path: string) => (isAbsolute(path) ? path : resolve(project.root, path));
  const configAgents = config === undefined ? {} : { configAgents: Object.keys(config.agents ?? {}) };
  const rerecordOf = (shownFile: string | undefined) =>
    (shownFile === undefined ? undefined : config?.rerecord?.(shownFile)) ??
    rerecordCommand({
      file: shownFile ?? '<file>',
      runner,
      ...(trajectory === undefined ? {} : { agent: trajectory.agent }),
      ...configAgents,
      config: configShown(project, cwd),
      legateModeSet: legateMode(env) !== undefined,
    });
  const fork = forkSettingsOf(given, trajectory, inProject, cwd, rerecordOf);
  const named = fork?.from === 'forkAt' ? given.out : given.file;
  const file = named === undefined ? undefined : inProject(named);
  const shown = file === undefined ? undefined : relative(cwd, file) || file;
  const settings: ReplaySettings = {
    folder: resolve(project.root, config?.trajectories ?? 'trajectories'),
    mode: resolveMode(given.mode, env, input.defaultMode),
    match: given.match ?? config?.match ?? trajectory?.match ?? DEFAULT_MATCH_LEVEL,
    redactions: union(config?.redactions, given.redactions),
    secrets: union(config?.secrets, given.secrets),
    runTools:
      (given.runTools === undefined ? undefined : checkRunTools(given.runTools, "The 'runTools' option")) ??
      config?.runTools ??
      DEFAULT_RUN_TOOLS,
    transport:
      given.transport !== undefined
        ? liveTransportOf(given.transport, "The 'transport' option")
        : config?.transport !== undefined
          ? liveTransportOf(config.transport, `${configShown(project, cwd)}'s transport`)
          : () => new AnthropicTransport(),
    rerecord: given.rerecord ?? rerecordOf(shown),
    samples:
      (given.samples === undefined ? undefined : checkSamples(given.samples, "The 'samples' option")) ??
      config?.samples ??
      1,
    pass:
      (given.pass === undefined ? undefined : checkSampleRule(given.pass, "The 'pass' option")) ??
      config?.pass ??
      DEFAULT_SAMPLE_RULE,
  };
  if (file !== undefined) settings.file = file;
  if (shown !== undefined) settings.shown = input.shown ?? shown;
  if (fork !== undefined) settings.fork = fork;
  return settings;
}

/** Who runs a replay nobody said who runs: a vitest test (whose `-u` does not re-record it), else code. */
function defaultRunner(env: NodeJS.ProcessEnv): ReplayRunner {
  return env.VITEST !== undefined && env.VITEST !== '' ? { kind: 'vitest', update: false } : { kind: 'code' };
}

/** Both lists, in order, each item once (a config's own list passed again is not doubled). */
function union<T>(first: readonly T[] | undefined, second: readonly T[] | undefined): T[] {
  return [...new Set([...(first ?? []), ...(second ?? [])])];
}
