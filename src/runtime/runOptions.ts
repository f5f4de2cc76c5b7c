import type { Message } from '../messages/types.js';
import type { GuardState } from '../guard/guardState.js';
import type { OutputSchema } from '../tools/output/prepareOutput.js';
import type { Transport } from '../transport/transport.js';
import type { TelemetryOptions } from '../telemetry/telemetryOptions.js';
import type { ApprovalDecision } from './approval/approvalDecision.js';
import type { ClaimStore } from './approval/claimRecord.js';
import type { AgentEventListener } from './events.js';
import type { ToolStub } from './executeToolCall.js';
import type { ReplayReferee } from './replayReferee.js';

export interface RunOptions {
  /** Cancels the run: it stops promptly and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told of each event as it happens (turns, text deltas, tool calls). */
  onEvent?: AgentEventListener;
  /**
   * An earlier conversation to continue; the input is appended to it. The run starts from the
   * guard state the conversation carries (taint, successes, attempts, a terminal tool's end),
   * recomputed from its tool calls; a tool result no reachable tool can be named for taints.
   */
  history?: Message[];
  /**
   * The guard state of the run that wrote `history` (its `result.guard`). It can only make the
   * run stricter: keep the taint of a history trimmed of its tool calls, never unlock a
   * prerequisite the history does not show.
   */
  guard?: GuardState;
  /** Keep streamed deltas in `result.events` too (they are always told to `onEvent`). */
  keepStreamEvents?: boolean;
  /** The clock tools read for this run, in place of the agent's (a replay serves recorded readings). */
  clock?: () => Date;
  /**
   * Answers tool calls in place of the tools, where it returns a call (a fuzzer planting outputs).
   * A replay serves recorded results through its referee instead (`replay`).
   */
  toolStub?: ToolStub;
  /** The transport for this run, in place of the agent's (a sub-agent inside a recorded or replayed call). */
  transport?: Transport;
  /**
   * While the run replays a recording: the recording's say over the run (`replayTransport.referee`; `runTrajectory`
   * passes it). It compares each call's decision with the recorded one before anything runs and serves the recorded
   * results of tools with side effects. Default: the referee the run's transport comes with, if it replays one.
   */
  replay?: ReplayReferee;
  /**
   * Asks for a structured answer: every request carries this schema (made strict) as the API's
   * `output_config.format`, and the final answer is checked against the whole schema and set as
   * `result.output`, typed from it. A zod object schema or a JSON Schema object; see
   * docs/structured-outputs.md.
   */
  output?: OutputSchema;
  /** This run's OpenTelemetry spans, in place of the agent's `telemetry`: `{ recordContent }`. */
  telemetry?: TelemetryOptions;
}

/** The options of a call that set the run's settings in place of the agent's. */
export type RunSettingsOptions = Pick<RunOptions, 'clock' | 'toolStub' | 'transport' | 'output' | 'replay'>;

/** The options every way of running takes alike. */
type CommonOptions =
  | 'signal'
  | 'onEvent'
  | 'keepStreamEvents'
  | 'clock'
  | 'toolStub'
  | 'output'
  | 'telemetry'
  | 'replay';

export interface ResumeOptions extends Pick<RunOptions, CommonOptions> {
  /**
   * `true` or `false` for every pending call, or one decision per call, bound to its input digest. Nothing else is a
   * decision.
   */
  approve: boolean | ApprovalDecision[];
  /** Told to the model for denied calls. */
  reason?: string;
  /**
   * Where the suspension is kept. It is claimed there before anything runs, for good, so a
   * suspension is resumed once, even across processes; each approved call's progress is recorded
   * on the claim, so a resume whose process died can be recovered (`agent.recover`). Without a
   * store, this process remembers, and there is nothing to recover from.
   */
  store?: ClaimStore;
  /** Who holds the claim, as the store shows it. Default: host, process id and a random part. */
  owner?: string;
}

export interface RecoverOptions extends Pick<RunOptions, CommonOptions> {
  /** The store the suspension was claimed in. */
  store: ClaimStore;
  /**
   * A claim whose record has not changed for this long counts as abandoned. Default 15 minutes; 0 when you know its
   * process stopped.
   */
  staleAfterMs?: number;
  /**
   * Tools whose calls, started and not finished, may run again: they make their effect idempotent on
   * `ctx.idempotencyKey`.
   */
  rerun?: readonly string[];
  owner?: string;
}
