import type { Message, ModelResponse } from '../messages/types.js';
import { counterIn, USAGE_COUNTERS, type UsageCounter } from '../messages/usageCounters.js';
import type { InvalidArgument } from '../tools/binder/invalidArgument.js';
import type { RenderedOutput } from '../tools/result/renderOutput.js';
import type { WithheldOutput } from '../tools/result/capOutput.js';
import type { GuardRule } from '../guard/guardContext.js';
import type { GuardState } from '../guard/guardState.js';
import type { Untraced } from '../guard/provenance/traceArguments.js';
import type { AgentEvent } from './events.js';
import type { Handoff } from './handoff.js';
import type { ApprovalRecord } from './approval/approvalRecord.js';
import type { Suspension } from './approval/suspension.js';

/** Why a run ended, for the reasons legate knows (see {@link StopReason}). */
export type KnownStopReason =
  /** The model finished its answer. */
  | 'end_turn'
  /** The model hit one of the request's stop sequences. */
  | 'stop_sequence'
  /** The model ran out of output tokens; `text` is cut off, and the response's tool calls are `incomplete`. */
  | 'max_tokens'
  /** The model declined to continue. */
  | 'refusal'
  /** The conversation no longer fits the model's context window. */
  | 'context_window_exceeded'
  /** The agent's `maxTurns` was reached while the model still wanted to call tools. */
  | 'max_turns'
  /** A terminal tool succeeded, and the model then gave its answer. */
  | 'terminal'
  /** A call waits for a person's approval: `result.suspension` holds the run. */
  | 'suspended';

/**
 * Why a run ended: one of the {@link KnownStopReason}s, or a stop reason the API added after this
 * release, as the API sent it (the run ends on it; the response's tool calls are `incomplete`).
 * Written so an editor still offers the known ones.
 */
export type StopReason = KnownStopReason | (string & {});

/**
 * What happened to one tool call: it ran (`ok`, or `error` when it threw or returned `toolError`),
 * the binder refused its input (`invalid`), a guard rule refused it (`blocked`), shadow mode
 * planned it, or the response that asked for it stopped before asking for its calls to run (cut
 * off by `max_tokens` or a full context window, a refusal: `incomplete`, never run; see
 * {@link ToolCall.input} for the call the cut fell in).
 */
export type ToolCallOutcome = 'ok' | 'error' | 'invalid' | 'blocked' | 'planned' | 'incomplete';

/** A tool's code threw: the caller gets the error; the model only learns the tool and the error's class. */
export interface ToolFailure {
  error: 'tool_failed';
  tool: string;
  /** The error's class name, the only detail the model was told. */
  errorClass: string;
  message: string;
  /** The thrown value itself. Never shown to the model. */
  cause: unknown;
}

/** The model called a tool this agent does not have. */
export interface UnknownTool {
  error: 'unknown_tool';
  tool: string;
  message: string;
  /** The tools the agent does have. */
  available: string[];
}

/**
 * The tool returned an error result (`toolError`): the model was told what the tool wrote (the
 * call's `output`), as an `is_error` result.
 */
export interface ToolReportedError {
  error: 'tool_error';
  tool: string;
}

export type ToolCallError = InvalidArgument | UnknownTool | ToolFailure | ToolReportedError;

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

/**
 * The run's usage: each counter the API reports, summed over every model call of the run (a
 * sub-agent's calls included). A counter a response did not report counts as 0. Each
 * response's usage, whole and as reported, is in `responses[i].usage`.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** Of the cache-creation tokens, those written for a 5-minute cache entry (`cache_creation`). */
  cacheCreation5mInputTokens: number;
  /** Of the cache-creation tokens, those written for a 1-hour cache entry (`cache_creation`). */
  cacheCreation1hInputTokens: number;
  /** Searches the web search server tool made (`server_tool_use`; billed). */
  webSearchRequests: number;
  /** Fetches the web fetch server tool made (`server_tool_use`). */
  webFetchRequests: number;
  /** Of the output tokens, those spent thinking (`output_tokens_details`). */
  thinkingTokens: number;
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
const COUNTERS = Object.keys(USAGE_COUNTERS) as UsageCounter[];

export function emptyUsage(): Usage {
  const usage: Record<UsageCounter, number> = Object.fromEntries(COUNTERS.map((counter) => [counter, 0])) as never;
  return usage;
}

/** Adds a response's reported usage to the run's. */
export function addUsage(total: Usage, response: ModelResponse): void {
  for (const counter of COUNTERS) total[counter] += counterIn(response.usage, counter);
}

/** Adds usage summed elsewhere (a sub-agent's run) to the run's; a counter it lacks counts as 0. */
export function addUsageTotals(total: Usage, usage: Readonly<Partial<Record<keyof Usage, number>>>): void {
  for (const counter of COUNTERS) total[counter] += usage[counter] ?? 0;
}
