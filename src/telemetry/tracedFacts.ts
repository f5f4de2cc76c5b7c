import type { UsageCounter } from '../messages/usageCounters.js';

/**
 * What the spans record of a run, and nothing more: the runtime hands telemetry its own records (an AgentResult, a
 * ToolCall, the CallDecision made for a call), which have these fields, so telemetry needs nothing of the runtime
 * and the runtime may call it (the type check holds the records to these shapes where they are handed over).
 */

/** A run's usage, summed: each counter by the name the runtime's `Usage` gives it. */
export type UsageTotals = Readonly<Record<UsageCounter, number>>;

/** What an agent invocation's span records of the run it ends (an `AgentResult`). */
export interface InvocationOutcome {
  agent: string;
  stopReason: string;
  turns: number;
  tainted: boolean;
  taintSource: string | undefined;
  usage: UsageTotals;
  suspension?: { pending: readonly { id: string }[] };
}

/** What a tool call's span records of the decision made before anything ran (a `CallDecision`). */
export interface TracedDecision {
  outcome: string;
  /** For `blocked`: the rule, and the taint source where there is one. */
  rule?: string;
  source?: string;
  /** For `invalid`: the refusal's code. */
  code?: string;
}

/** What a tool call's span records of the call, once answered (a `ToolCall`). */
export interface TracedCall {
  outcome: string;
  rule?: string;
  source?: string;
  handoff?: { to: string };
  /** What the model was told: recorded with the span's content only. */
  output: unknown;
  /** Why it failed: `tool_failed` (with the thrown error's class) or the error's own code. */
  error?: { error: string; errorClass?: string };
}
