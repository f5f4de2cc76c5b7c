import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { UserBlock } from '../messages/types.js';
import type { Agent } from '../runtime/Agent.js';
import { toolsReachableFrom } from '../runtime/agentGraph.js';
import type { ApprovalDecision } from '../runtime/resume.js';
import type { Suspension } from '../runtime/suspension.js';
import type { ToolStub } from '../runtime/executeToolCall.js';
import type { AgentResult } from '../runtime/agentResult.js';
import { AnthropicTransport } from '../transport/anthropic/AnthropicTransport.js';
import { RecordingTransport } from '../transport/recording/RecordingTransport.js';
import { ReplayTransport } from '../transport/replay/ReplayTransport.js';
import type { Transport } from '../transport/transport.js';
import { diffTrajectories, summarizeChanges, type TrajectoryChange } from '../trajectory/diffTrajectories.js';
import type { MatchLevel } from '../trajectory/matchRequest.js';
import { createRedactor, type Redaction } from '../trajectory/redaction.js';
import { expectationFailed } from '../trajectory/divergence.js';
import type { Trajectory } from '../trajectory/types.js';
import { fromRun, type RunRecord } from './fromRun.js';
import { resolveMode, type RecordingMode } from './mode.js';
import { recordedClock, recordingClock } from './recordedClock.js';
import { servedResults } from './servedResults.js';
import { loadTrajectory, prepareTrajectory, saveTrajectory } from './trajectoryFile.js';
import { sdkVersion } from './sdkVersion.js';
import { UsageError } from '../errors/UsageError.js';

/** Builds the agent under test around a transport: the live model, or a replay. */
export type AgentFactory = (transport: Transport) => Agent;

export interface TrajectoryRunOptions {
  /** The trajectory file. */
  file: string;
  agent: AgentFactory;
  /** The user's input. Needed to record; a replay uses the recorded input. */
  input?: string | UserBlock[];
  /** Default: the file name without its extension. */
  name?: string;
  description?: string;
  /** Default: `LEGATE_MODE`, else `replay` under CI, else `auto`. */
  mode?: RecordingMode;
  /** The live transport for record and passthrough. Default: `new AnthropicTransport()`. */
  transport?: () => Transport;
  /** How closely a replayed run must match. Default `exact`. */
  match?: MatchLevel;
  redactions?: readonly Redaction[];
  /** Patterns beyond the built-in ones that must never be saved. */
  secrets?: readonly (RegExp | string)[];
  /** Serve recorded tool results instead of running the tools: all (`true`) or the named ones. Default: the file's `serve`. */
  serveToolResults?: true | readonly string[];
  /** When recording: answers calls in place of the tools (a fuzzer planting outputs). */
  toolStub?: ToolStub;
  /** The command that re-records this file, quoted in divergence messages. */
  rerecord?: string;
  /** Told what changed when a recording replaces one that differed. Default: standard error; false: silent. */
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
  file: string;
  result: AgentResult;
  /** The trajectory replayed or written (absent for passthrough). */
  trajectory?: Trajectory;
  /** For a re-recording: what changed against the file it replaced. */
  changes?: TrajectoryChange[];
}

/**
 * Runs an agent against a trajectory file in the mode in force: replays it offline, checking
 * every request, or runs live and records it (atomically, redacted, scanned for secrets).
 */
export async function runTrajectory(options: TrajectoryRunOptions): Promise<TrajectoryRun> {
  const mode = resolveMode(options.mode);
  const rerecord = options.rerecord ?? `LEGATE_MODE=record npx legate replay ${options.file}`;
  if (mode === 'replay' || (mode === 'auto' && existsSync(options.file))) return replay(options, rerecord);
  if (mode === 'passthrough') {
    const result = await options.agent(liveTransport(options)).run(requireInput(options, undefined));
    return { mode: 'passthrough', file: options.file, result };
  }
  return record(options);
}

async function replay(options: TrajectoryRunOptions, rerecord: string): Promise<TrajectoryRun> {
  const trajectory = loadTrajectory(options.file, `Record it first: ${rerecord}`);
  const context = { file: options.file, rerecord };
  const transport = new ReplayTransport(trajectory, { file: options.file, match: options.match ?? trajectory.match ?? 'exact', redact: createRedactor(options.redactions ?? []), rerecord });
  const agent = options.agent(transport);
  const serve = options.serveToolResults ?? trajectory.serve;
  const runOptions = {
    clock: recordedClock(trajectory),
    ...(serve === undefined ? {} : { toolStub: servedResults(trajectory, serve, context) }),
  };
  let result = await agent.run(trajectory.input, runOptions);
  // A recorded decision resumes the run where the recording did; none means it ended suspended.
  for (let decisions = recordedDecisions(trajectory, result); decisions !== undefined; decisions = recordedDecisions(trajectory, result)) {
    result = await agent.resume(result.suspension!, { ...runOptions, approve: decisions });
  }
  transport.assertDone();
  checkExpectations(trajectory, result, context);
  return { mode: 'replay', file: options.file, result, trajectory };
}

async function record(options: TrajectoryRunOptions): Promise<TrajectoryRun> {
  const previous = existsSync(options.file) ? tryLoad(options.file) : undefined;
  const input = requireInput(options, previous);
  const transport = new RecordingTransport(liveTransport(options));
  const agent = options.agent(transport);
  const clock = recordingClock(agent.clock);
  const recordedAt = new Date();
  const stub = options.toolStub === undefined ? {} : { toolStub: options.toolStub };
  let result = await agent.run(input, { clock: clock.now, ...stub });
  while (result.stopReason === 'suspended' && options.approve !== undefined) {
    result = await agent.resume(result.suspension!, { clock: clock.now, approve: await options.approve(result.suspension!), ...stub });
  }
  if (transport.exchanges.length === 0) throw new UsageError('nothing_to_record', `The run made no model call, so there is nothing to record in ${options.file}.`);
  const trajectory = fromRun({
    name: options.name ?? previous?.name ?? basename(options.file, extname(options.file)),
    description: options.description ?? previous?.description,
    agent,
    input,
    result,
    requests: transport.exchanges.map((exchange) => exchange.request),
    subRequests: subRequestsOf(transport),
    tools: toolsReachableFrom(agent),
    clock: clock.readings,
    recordedAt,
    sdkVersion: sdkVersion(),
  });
  const saveOptions = { redactions: options.redactions ?? [], secrets: options.secrets ?? [] };
  const redacted = prepareTrajectory(trajectory, saveOptions);
  const changes = previous === undefined ? undefined : diffTrajectories(previous, redacted);
  // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
  const saved = changes !== undefined && changes.length === 0 ? previous! : saveTrajectory(options.file, trajectory, saveOptions);
  const run: TrajectoryRun = { mode: 'record', file: options.file, result, trajectory: saved };
  if (changes !== undefined) {
    run.changes = changes;
    if (changes.length > 0) reportChanges(options, `re-recorded ${options.file}: ${summarizeChanges(changes)}`);
  }
  return run;
}

/** What a recording transport's children saw, recursively, for sub-agents' runs. */
function subRequestsOf(transport: RecordingTransport): NonNullable<RunRecord['subRequests']> {
  return new Map([...transport.children].map(([id, child]) => [id, { requests: child.exchanges.map((e) => e.request), subRequests: subRequestsOf(child) }]));
}

/** A recording's own expectations: calls that must be blocked (a fuzz finding's regression test). */
function checkExpectations(trajectory: Trajectory, result: AgentResult, context: { file: string; rerecord: string }): void {
  for (const expected of trajectory.expect?.blocked ?? []) {
    const call = result.toolCalls.find((c) => c.id === expected.id);
    const ok = call !== undefined && call.outcome === 'blocked' && (expected.rule === undefined || call.rule === expected.rule);
    if (!ok) throw expectationFailed(context, call?.turn ?? 0, expected.id, expected.tool, expected.rule, call === undefined ? 'never called' : `${call.outcome}${call.rule === undefined ? '' : ` by ${call.rule}`}`);
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
    return { id: pending.id, inputDigest: pending.inputDigest, approve: decision?.approve === true, ...(decision?.reason === undefined ? {} : { reason: decision.reason }) };
  });
}

function reportChanges(options: TrajectoryRunOptions, message: string): void {
  if (options.report === false) return;
  if (options.report !== undefined) options.report(message);
  else process.stderr.write(`legate: ${message}\n`);
}

function liveTransport(options: TrajectoryRunOptions): Transport {
  return options.transport?.() ?? new AnthropicTransport();
}

function requireInput(options: TrajectoryRunOptions, previous: Trajectory | undefined): string | UserBlock[] {
  const input = options.input ?? previous?.input;
  if (input === undefined) throw new UsageError('missing_input', `Recording ${options.file} needs the user's input: pass { input } (a replay takes it from the file).`);
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
