import { existsSync } from 'node:fs';
import { basename, extname, isAbsolute, relative } from 'node:path';
import type { UserBlock } from '../messages/types.js';
import type { Agent } from '../runtime/Agent.js';
import { postureToolsReachableFrom, serverToolsReachableFrom } from '../runtime/agentGraph.js';
import type { ApprovalDecision } from '../runtime/approval/approvalDecision.js';
import type { Suspension } from '../runtime/approval/suspension.js';
import type { ToolStub } from '../runtime/executeToolCall.js';
import type { RunTools } from './runToolsPolicy.js';
import type { AgentResult } from '../runtime/agentResult.js';
import { RecordingTransport } from '../transport/recording/RecordingTransport.js';
import { ReplayTransport } from './ReplayTransport.js';
import type { Transport } from '../transport/transport.js';
import type { LiveTransport } from '../recording/liveTransport.js';
import { diffTrajectories, summarizeChanges, type TrajectoryChange } from '../trajectory/diffTrajectories.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import { createRedactor, type Redaction } from '../trajectory/redaction.js';
import { callsWithRedactedInput } from '../trajectory/redactedInputs.js';
import type { ReplayRunner } from './rerecordCommand.js';
import { expectationFailed } from './divergence.js';
import type { Trajectory } from '../trajectory/types.js';
import { fromRun, type RunRecord } from '../recording/fromRun.js';
import { checkRunFacts } from './runFacts.js';
import type { RecordingMode } from '../recording/mode.js';
import { loadProject, type Project } from './projectConfig.js';
import { recordedClock, recordingClock } from '../recording/recordedClock.js';
import { resolveReplaySettings, type ReplaySettings } from './replaySettings.js';
import { loadTrajectory, prepareTrajectory, recordFirst, saveTrajectory } from '../trajectory/trajectoryFile.js';
import { sdkVersion } from '../recording/sdkVersion.js';
import { UsageError } from '../errors/UsageError.js';
import type { OutputSchema } from '../tools/output/prepareOutput.js';
import { StructuredOutputError } from '../runtime/structuredOutputError.js';

/** Builds the agent under test around a transport: the live model, or a replay. */
export type AgentFactory = (transport: Transport) => Agent;

/**
 * A run's own settings. Each one left out comes from the project's legate.config.ts, then the
 * file, then the default: the precedence of resolveReplaySettings (docs/trajectory-format.md).
 */
export interface TrajectoryRunOptions {
  /** The trajectory file: absolute, or relative to the config's folder (else the project root), not the cwd. */
  file: string;
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
   * is, never read again. It must be what `file` holds.
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
   * For a replay: the calls answered from the recording instead of running their tools (tools with
   * side effects, by default; see `runTools`), sub-agents' included, in order.
   */
  served?: { id: string; tool: string }[];
}

/**
 * Runs an agent against a trajectory file in the mode in force: replays it offline, checking
 * every request, or runs live and records it (atomically, redacted, scanned for secrets).
 * Settings come from the options, then the project's legate.config.ts, then the file, then
 * the defaults (see resolveReplaySettings). `legate replay` runs each file through it, with
 * its `project`, `cwd` and `runner`.
 */
export async function runTrajectory(options: TrajectoryRunOptions): Promise<TrajectoryRun> {
  const { settings, settingsFor, file, shown } = await resolveRun(options);
  if (
    settings.mode === 'replay' ||
    (settings.mode === 'auto' && (options.trajectory !== undefined || existsSync(file)))
  ) {
    return replay(options, { file, shown, rerecord: settings.rerecord }, settingsFor);
  }
  if (settings.mode === 'passthrough') {
    const result = await options
      .agent(settings.transport())
      .run(requireInput(options, shown, undefined), outputOption(options));
    return { mode: 'passthrough', file, result };
  }
  return record(options, file, shown, settings);
}

/**
 * Records a run to its file whatever mode is in force (`LEGATE_MODE` included), with the same
 * settings otherwise: for a file that is new by construction, such as a fuzz finding, where a
 * replay would have nothing to replay.
 */
export async function recordTrajectory(options: Omit<TrajectoryRunOptions, 'mode'>): Promise<TrajectoryRun> {
  const { settings, file, shown } = await resolveRun(options);
  return record(options, file, shown, settings);
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
  const shown = isAbsolute(options.file) ? options.file : relative(cwd, file) || file;
  return { settings, settingsFor: options.trajectory === undefined ? settingsFor : () => settings, file, shown };
}

type Where = { file: string; shown: string; rerecord: string };

async function replay(
  options: TrajectoryRunOptions,
  where: Where,
  settingsFor: (t: Trajectory) => ReplaySettings,
): Promise<TrajectoryRun> {
  const { file, shown } = where;
  const trajectory = options.trajectory ?? loadTrajectory(file, recordFirst(where.rerecord));
  const settings = settingsFor(trajectory);
  const context = { file: shown, rerecord: settings.rerecord };
  const transport = new ReplayTransport(trajectory, {
    ...context,
    match: settings.match,
    redact: createRedactor(settings.redactions),
    runTools: settings.runTools,
  });
  const agent = options.agent(transport);
  const runOptions = { clock: recordedClock(trajectory), replay: transport.referee, ...outputOption(options) };
  let result = await agent.run(trajectory.input, runOptions);
  // A recorded decision resumes the run where the recording did; none means it ended suspended.
  for (
    let decisions = recordedDecisions(trajectory, result);
    decisions !== undefined;
    decisions = recordedDecisions(trajectory, result)
  ) {
    result = await agent.resume(result.suspension!, { ...runOptions, approve: decisions });
  }
  transport.assertDone();
  // A file with expectations (a fuzz finding) recorded the broken run: how that run ended is not the goal.
  if (trajectory.expect === undefined) checkRunFacts(trajectory, result, context);
  checkExpectations(trajectory, result, context);
  return { mode: 'replay', file, result, trajectory, served: [...transport.served] };
}

async function record(
  options: TrajectoryRunOptions,
  file: string,
  shown: string,
  settings: ReplaySettings,
): Promise<TrajectoryRun> {
  const previous = options.trajectory ?? (existsSync(file) ? tryLoad(file) : undefined);
  const input = requireInput(options, shown, previous);
  const transport = new RecordingTransport(settings.transport());
  const agent = options.agent(transport);
  const clock = recordingClock(agent.clock);
  const recordedAt = new Date();
  const stub = { ...(options.toolStub === undefined ? {} : { toolStub: options.toolStub }), ...outputOption(options) };
  // A run whose answer the output schema refuses is recorded too (its replay refuses it the same way), then thrown.
  let refusedAnswer: StructuredOutputError | undefined;
  const finished = (run: Promise<AgentResult>) =>
    run.catch((error: unknown) => {
      if (!(error instanceof StructuredOutputError)) throw error;
      refusedAnswer = error;
      return error.result;
    });
  let result = await finished(agent.run(input, { clock: clock.now, ...stub }));
  while (result.stopReason === 'suspended' && options.approve !== undefined) {
    result = await finished(
      agent.resume(result.suspension!, {
        clock: clock.now,
        approve: await options.approve(result.suspension!),
        ...stub,
      }),
    );
  }
  if (transport.exchanges.length === 0) {
    throw new UsageError('nothing_to_record', `The run made no model call, so there is nothing to record in ${shown}.`);
  }
  const trajectory = fromRun({
    name: options.name ?? previous?.name ?? basename(file, extname(file)),
    description: options.description ?? previous?.description,
    agent,
    input,
    result,
    requests: transport.exchanges.map((exchange) => exchange.request),
    subRequests: subRequestsOf(transport),
    tools: [...postureToolsReachableFrom(agent), ...serverToolsReachableFrom(agent)],
    clock: clock.readings,
    recordedAt,
    sdkVersion: sdkVersion(),
  });
  const saveOptions = { redactions: settings.redactions, secrets: settings.secrets };
  const redacted = prepareTrajectory(trajectory, saveOptions);
  const changes = previous === undefined ? undefined : diffTrajectories(previous, redacted);
  // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
  const saved =
    changes !== undefined && changes.length === 0 ? previous! : saveTrajectory(file, trajectory, saveOptions);
  const run: TrajectoryRun = { mode: 'record', file, result, trajectory: saved };
  for (const call of callsWithRedactedInput(redacted.turns)) {
    tell(
      options,
      `recorded ${shown}: a redaction changed the input of call ${call.id} ('${call.tool}'), so a replay serves ` +
        'its recorded result instead of running the tool with the placeholder.',
    );
  }
  if (changes !== undefined) {
    run.changes = changes;
    if (changes.length > 0) tell(options, `re-recorded ${shown}: ${summarizeChanges(changes)}`);
  }
  if (refusedAnswer !== undefined) throw refusedAnswer;
  return run;
}

function outputOption(options: TrajectoryRunOptions): { output?: OutputSchema } {
  return options.output === undefined ? {} : { output: options.output };
}

/** What a recording transport's children saw, recursively, for sub-agents' runs. */
function subRequestsOf(transport: RecordingTransport): NonNullable<RunRecord['subRequests']> {
  return new Map(
    [...transport.children].map(([id, child]) => [
      id,
      { requests: child.exchanges.map((e) => e.request), subRequests: subRequestsOf(child) },
    ]),
  );
}

/** A recording's own expectations: calls that must be blocked (a fuzz finding's regression test). */
function checkExpectations(
  trajectory: Trajectory,
  result: AgentResult,
  context: { file: string; rerecord: string },
): void {
  for (const expected of trajectory.expect?.blocked ?? []) {
    const call = result.toolCalls.find((c) => c.id === expected.id);
    const ok =
      call !== undefined && call.outcome === 'blocked' && (expected.rule === undefined || call.rule === expected.rule);
    if (!ok)
      throw expectationFailed(
        context,
        call?.turn ?? 0,
        expected.id,
        expected.tool,
        expected.rule,
        call === undefined ? 'never called' : `${call.outcome}${call.rule === undefined ? '' : ` by ${call.rule}`}`,
      );
  }
}

/** The decisions recorded for the turn a replayed run stopped on, bound to the live pending calls. */
function recordedDecisions(trajectory: Trajectory, result: AgentResult): ApprovalDecision[] | undefined {
  const suspension = result.suspension;
  if (result.stopReason !== 'suspended' || suspension === undefined) return undefined;
  const recorded = trajectory.turns[suspension.batch.turn - 1]?.approvals;
  if (recorded === undefined) return undefined;
  return suspension.pending.map((pending) => {
    const decision = recorded.find((r) => r.id === pending.id);
    return {
      id: pending.id,
      inputDigest: pending.inputDigest,
      approve: decision?.approve === true,
      ...(decision?.reason === undefined ? {} : { reason: decision.reason }),
    };
  });
}

function tell(options: TrajectoryRunOptions, message: string): void {
  if (options.report === false) return;
  if (options.report !== undefined) options.report(message);
  else process.stderr.write(`legate: ${message}\n`);
}

function requireInput(
  options: TrajectoryRunOptions,
  shown: string,
  previous: Trajectory | undefined,
): string | UserBlock[] {
  const input = options.input ?? previous?.input;
  if (input === undefined) {
    throw new UsageError(
      'missing_input',
      `Recording ${shown} needs the user's input: pass { input } (a replay takes it from the file).`,
    );
  }
  return input;
}

/** An unreadable old file is simply replaced; only its name and input would have been reused. */
function tryLoad(file: string): Trajectory | undefined {
  try {
    return loadTrajectory(file);
  } catch {
    return undefined;
  }
}
