import type { Message, ModelResponse } from '../messages/types.js';
import type { RenderedOutput } from '../tools/result/renderOutput.js';
import type { WithheldOutput } from '../tools/result/capOutput.js';
import type { GuardRule } from '../guard/guardContext.js';
import type { GuardState } from '../guard/guardState.js';
import type { Untraced } from '../guard/provenance/traceArguments.js';
import type { Handoff } from './handoff.js';
import type { ApprovalRecord } from './approval/approvalRecord.js';
import type { PendingCall } from './approval/pendingCall.js';
import type { StreamEvent } from '../transport/transport.js';
import type { CallDecision } from './replayReferee.js';
import type { StopReason } from './stopReason.js';
import type { ToolCallError } from './toolCallError.js';
import type { Usage } from './runUsage.js';

/**
 * What happened to one tool call: it ran (`ok`, or `error` when it threw or returned `toolError`),
 * the binder refused its input (`invalid`), a guard rule refused it (`blocked`), shadow mode
 * planned it, or the response that asked for it stopped before asking for its calls to run (cut
 * off by `max_tokens` or a full context window, a refusal: `incomplete`, never run; see
 * {@link ToolCall.input} for the call the cut fell in).
 */
export type ToolCallOutcome = 'ok' | 'error' | 'invalid' | 'blocked' | 'planned' | 'incomplete';

export interface ToolCall {
  /** The tool_use id. */
  id: string;
  name: string;
  /**
   * What the model sent, as it sent it. Undefined for the `incomplete` call a cutting stop
   * (`max_tokens`, a full context window, a refusal) cut off: the API stopped while the model
   * wrote its input, so nothing complete was sent (the response in `responses` keeps what the
   * transport made of the fragment).
   */
  input: unknown;
  outcome: ToolCallOutcome;
  /** What the model was told: the tool's rendered output, or the error text. */
  output: RenderedOutput;
  /** Present for outcomes other than `ok`. */
  error?: ToolCallError;
  /** Present when `maxResultLength` withheld part of the output. */
  withheld?: WithheldOutput;
  /** For `blocked`: the rule that refused the call (`approval` when a person declined it); for `planned`: `shadow`. */
  rule?: GuardRule | 'approval' | 'shadow';
  /** For a call blocked by taint: the untrusted tool whose content entered the conversation. */
  source?: string;
  /**
   * For a call blocked by taint after provenance was checked: the sensitive argument whose value was
   * traced to no trusted text, and the tools whose outside-authored text holds it.
   */
  untraced?: Untraced;
  /** For a transfer call that was made: the agent the conversation went to. */
  handoff?: { to: string; reason?: string };
  /** For a sub-agent's call (`asTool`): the sub-agent's whole run. */
  subRun?: AgentResult;
  /** The 1-based turn whose response asked for the call. */
  turn: number;
}

export interface AgentResult {
  /** The agent that produced the final answer. */
  agent: string;
  /** The text of the last response. */
  text: string;
  /**
   * With `output` (a schema) given to the run: the final answer, parsed from `text` and checked
   * against the schema; undefined when the run stopped without a whole answer (any `stopReason`
   * other than `end_turn` and `terminal`). Absent for a run without `output`.
   */
  output?: unknown;
  stopReason: StopReason;
  /** The whole conversation, in Messages API form, starting with the input. */
  messages: Message[];
  /** The model's responses, one per turn, as the transport returned them. */
  responses: ModelResponse[];
  /** Every tool call, in the order the model asked for them. */
  toolCalls: ToolCall[];
  usage: Usage;
  /** Everything observable that happened, in order. */
  events: AgentEvent[];
  /** Model calls made. */
  turns: number;
  /** Every call a guard rule refused, in order. */
  blocked: BlockedCall[];
  /** True once an untrusted tool succeeded in this run. */
  tainted: boolean;
  /** The untrusted tool whose content entered the conversation first. */
  taintSource: string | undefined;
  /** Effects of privileged tools that shadow mode planned instead of carrying out. */
  plannedEffects: PlannedEffect[];
  /** The guard's state at the end of the run: plain data. */
  guard: GuardState;
  /** The agent that made each response, in step with `responses`. */
  agents: string[];
  /** Every transfer of the conversation, in order. */
  handoffs: Handoff[];
  /** For a suspended run: everything needed to resume it, as plain JSON. */
  suspension?: Suspension;
  /** The decisions people made on this run's suspensions, in order. */
  approvals: ApprovalRecord[];
}

/** A call a guard rule (or a person, `approval`) refused: the same fact the model was told, as data. */
export interface BlockedCall {
  id: string;
  tool: string;
  rule: GuardRule | 'approval';
  message: string;
  source?: string;
}

/** A privileged call shadow mode planned, with the arguments it would have run with. */
export interface PlannedEffect {
  id: string;
  tool: string;
  input: unknown;
}

/** The counters, by their names in Usage (the types hold the two lists to the same names, both ways). */

/** What can be observed while a run goes, and what the result keeps in `events`. */
export type AgentEvent =
  | { type: 'run_started'; agent: string }
  | { type: 'turn_started'; agent: string; turn: number }
  | { type: 'stream'; agent: string; turn: number; event: StreamEvent }
  | { type: 'model_responded'; agent: string; turn: number; stopReason: string | null; toolUses: number }
  /**
   * A call taken up, with the decision made for it before anything ran (the one a replay compares): `run`,
   * `invalid` with its code, `blocked` with its rule and source, `planned`, `suspended`, `incomplete`.
   */
  | {
      type: 'tool_called';
      agent: string;
      turn: number;
      id: string;
      name: string;
      input: unknown;
      decision: CallDecision;
    }
  /** A call answered, told in block order once it and every call before it in its response are. */
  | { type: 'tool_finished'; agent: string; turn: number; call: ToolCall }
  | { type: 'handoff'; from: string; to: string; reason?: string; turn: number }
  | { type: 'suspended'; agent: string; turn: number; pending: string[] }
  | { type: 'resumed'; agent: string; turn: number; approved: string[]; denied: string[] }
  /**
   * A recovery of a claimed resume: approved calls answered from the claim's record, run again (idempotent tools), or
   * of unknown outcome.
   */
  | { type: 'recovered'; agent: string; turn: number; reused: string[]; rerun: string[]; unknown: string[] }
  | { type: 'run_finished'; agent: string; stopReason: StopReason; usage: Usage };

/**
 * A run stopped to wait for approval: versioned, plain JSON. Saved to a store, it survives the
 * process; `agent.resume(suspension, decision)` continues the run exactly where it stopped.
 */
export interface Suspension {
  version: number;
  /** Unique to this suspension: a resumed suspension is spent. */
  id: string;
  /** The run it belongs to, the same across its suspensions. */
  runId: string;
  /** The agent in charge when the run stopped: the one that resumes it. */
  agent: string;
  createdAt: string;
  /** The calls waiting for a decision, in block order. */
  pending: PendingCall[];
  /** The other calls of the same response, already answered, and the guard's decision for each call of it. */
  batch: {
    turn: number;
    ids: string[];
    allowed: boolean[];
    answered: ToolCall[];
    /** The bound arguments of calls shadow mode planned, by id, for `plannedEffects`. */
    plannedInputs?: Record<string, unknown>;
  };
  state: RunState;
  /**
   * With an agent `suspensionKey`: an HMAC-SHA256 over everything above, so whoever can write
   * the store but does not hold the key cannot make a suspension the agent will resume.
   */
  signature?: string;
}

/**
 * Everything a run has accumulated, as plain data: what the loop reads and extends turn by
 * turn, and what a suspension saves so that a resumed run goes on exactly where it stopped.
 */
export interface RunState {
  messages: Message[];
  responses: ModelResponse[];
  /** The agent that made each response, in step with `responses`. */
  agents: string[];
  toolCalls: ToolCall[];
  plannedEffects: PlannedEffect[];
  usage: Usage;
  guard: GuardState;
  handoffs: Handoff[];
  /** Model calls made so far in the run. */
  turns: number;
  /** Model calls made by the agent now in charge (its maxTurns counts these). */
  agentTurns: number;
  /** Every decision a person made on a suspended run, in order. */
  approvals: ApprovalRecord[];
}
