import type { UserBlock } from '../messages/types.js';
import type { ApprovalDecision } from '../runtime/approval/approvalDecision.js';
import type { Suspension } from '../runtime/agentResult.js';
import type { ToolStub } from '../runtime/executeToolCall.js';
import type { AgentResult } from '../runtime/agentResult.js';
import type { LiveTransport } from '../recording/liveTransport.js';
import type { RecordingMode } from '../recording/mode.js';
import type { TrajectoryChange } from '../trajectory/diffTrajectories.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import type { Redaction } from '../trajectory/redaction.js';
import type { Trajectory } from '../trajectory/types.js';
import type { OutputSchema } from '../tools/output/prepareOutput.js';
import type { AgentFactory } from './config.js';
import type { Project } from './projectConfig.js';
import type { ForkAt } from './forkSettings.js';
import type { ForkOfRun } from './forkParentState.js';
import type { ReplaySettings } from './replaySettings.js';
import type { ReplayRunner } from './rerecordCommand.js';
import type { RunTools } from './runToolsPolicy.js';
import type { SampleVerdict } from './samplesFailedError.js';
import type { SampleCheck } from './sampleRuns.js';
import type { SampleRule } from './sampleRule.js';

/**
 * A run's own settings. Each one left out comes from the project's legate.config.ts, then the
 * file, then the default: the precedence of resolveReplaySettings (docs/trajectory-format.md).
 */
export interface TrajectoryRunOptions {
  /**
   * The trajectory file: absolute, or relative to the config's folder (else the project root), not the cwd. With
   * `forkAt`, the file to fork (the parent), which is only read.
   */
  file: string;
  /**
   * Fork `file` at this turn: its first turns served as a replay serves them (every request compared), the turns
   * after run live with `transport`, the whole run written to `out`, which names its parent and the turn. The mode
   * then applies to `out`: `auto` replays it if it exists, else forks; `record` forks again; `replay` replays it;
   * `passthrough` forks and writes nothing. `{ turn, sample }` forks one of the file's samples (default: its first).
   */
  forkAt?: ForkAt;
  /** With `forkAt`: the fork's own file, resolved as `file` is. Never the parent. */
  out?: string;
  /**
   * The project's config file, whose `match`, `redactions`, `secrets`, `transport` and `rerecord`
   * apply to this run; `false` for none. Default: the first legate.config.* in the working
   * directory or a folder above it, up to the project root (the nearest package.json).
   */
  config?: string | false;
  /**
   * The project, already loaded with loadProject: its config applies and its root is where a
   * relative `file` resolves. When given, `config` is not looked at and nothing is loaded.
   */
  project?: Project;
  /**
   * Where the user is: where the config is looked for, and what paths in messages are relative
   * to. Default: `process.cwd()`.
   */
  cwd?: string;
  /**
   * Who runs this file, for the command that re-records it in divergence and missing-file
   * messages (see docs/trajectory-format.md). Default: `vitest` under vitest, else `code`;
   * a tool that replays files as `legate replay` does passes `{ kind: 'cli' }`.
   */
  runner?: ReplayRunner;
  agent: AgentFactory;
  /**
   * The file, already read (by a caller that read it to choose the agent, as `legate replay` does): replayed as it
   * is, never read again. It must be what `file` holds (with `forkAt`: the parent).
   */
  trajectory?: Trajectory;
  /**
   * Every setting, already resolved for this file (and its trajectory) with resolveReplaySettings: used as it is, so
   * the project, `config`, `cwd`, `runner` and the setting options (`mode`, `match`, `runTools`, `redactions`,
   * `secrets`, `transport`, `rerecord`) are not looked at again.
   */
  settings?: ReplaySettings;
  /** The user's input. Needed to record; a replay uses the recorded input. */
  input?: string | UserBlock[];
  /**
   * The structured answer the run asks for (`agent.run`'s `output`): recorded as the request's
   * `output`, compared on replay, and `result.output` computed from the recorded answer.
   */
  output?: OutputSchema;
  /** Default: the file name without its extension. */
  name?: string;
  description?: string;
  /** `LEGATE_MODE` wins over this (see resolveMode). Without either: `replay` under CI, else `auto`. */
  mode?: RecordingMode;
  /**
   * The live transport for record and passthrough: a transport (`new AnthropicTransport()`), used as it
   * is, or a function that returns one, called for the run. Default: the config's, else
   * `new AnthropicTransport()`.
   */
  transport?: LiveTransport;
  /** How closely a replayed run must match. Default: the config's, else the file's `match:`, else `exact`. */
  match?: MatchLevel;
  /** Applied after the config's redactions (both apply). */
  redactions?: readonly Redaction[];
  /** Patterns beyond the built-in ones and the config's that must never be saved. */
  secrets?: readonly (RegExp | string)[];
  /**
   * Which tools run for real in a replay; the others are served from the recording. Default: the
   * config's, else `safe` (tools with side effects are served). See {@link RunTools}.
   */
  runTools?: RunTools;
  /**
   * How many times to run the agent when recording, each run a sample of its own in the one file (a model answers
   * differently from run to run). Default: the config's, else 1. A replay replays every sample the file holds.
   */
  samples?: number;
  /**
   * When a file of several samples passes: `'all'` of them (pass^k), `{ atLeast: m }` or `{ rate: r }` (0 < r <= 1).
   * Default: the config's, else `'all'`, so nothing gets laxer by accident.
   */
  pass?: SampleRule;
  /**
   * The test body, run on each sample's result (the run's, recorded or replayed): it fails that sample by
   * throwing (an `expect`). With one sample, its failure is thrown as it is.
   */
  check?: SampleCheck;
  /** When recording: answers calls in place of the tools (a fuzzer planting outputs). */
  toolStub?: ToolStub;
  /** The command that re-records this file, quoted in divergence messages. Default: the config's, else built to fit. */
  rerecord?: string;
  /**
   * Told what a recording should know: what changed when it replaces a file that differed, and each
   * call whose input a redaction changed. Default: standard error; false: silent.
   */
  report?: ((message: string) => void) | false;
  /**
   * When recording, decides the calls a run stops for, so the suspension and the decision are
   * recorded in the one file. A replay applies the recorded decisions instead.
   */
  approve?: (suspension: Suspension) => boolean | ApprovalDecision[] | Promise<boolean | ApprovalDecision[]>;
}

export interface TrajectoryRun {
  /** What actually happened: a replay, a recording, or a live run that wrote nothing. */
  mode: 'replay' | 'record' | 'passthrough';
  /** The trajectory file, absolute: as resolved against the project root. */
  file: string;
  result: AgentResult;
  /** The trajectory replayed or written (absent for passthrough). */
  trajectory?: Trajectory;
  /** For a re-recording: what changed against the file it replaced. */
  changes?: TrajectoryChange[];
  /**
   * For a replay (and a fork's served turns): the calls answered from the recording instead of running their tools
   * (tools with side effects, by default; see `runTools`), sub-agents' included, in order.
   */
  served?: { id: string; tool: string }[];
  /**
   * For a file of several samples: each one's verdict, in file order (`result` is the first passing sample's).
   * Absent for a file of one sample.
   */
  samples?: SampleVerdict[];
  /**
   * For a fork (made, or replayed from a file that is one): its parent, and whether the parent still holds what was
   * forked. A parent changed or gone since is told through `report`, and does not fail the replay.
   */
  fork?: ForkOfRun;
}

/** The run's `output` option, as the run options of an agent take it. */
export function outputOption(options: TrajectoryRunOptions): { output?: OutputSchema } {
  return options.output === undefined ? {} : { output: options.output };
}
