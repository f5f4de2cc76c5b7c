import type { AgentResult } from '../runtime/agentResult.js';
import type { Trajectory } from '../trajectory/types.js';
import { checks, type CheckOutcome, type Equals, type SequenceMode } from './checks.js';
import { viewOf } from './runView.js';

/** What a matcher can be given: a live result or a loaded trajectory. */
export type RunSubject = AgentResult | Trajectory;

/** The matchers legate adds, written once and used by both the vitest and the framework-free API. */
export const matcherChecks = {
  toBeTainted: (subject: RunSubject, _equals: Equals, options?: { source?: string }) => checks.tainted(viewOf(subject), options),
  toHaveBlocked: (subject: RunSubject, _equals: Equals, tool?: string, options?: { rule?: string; source?: string }) => checks.blocked(viewOf(subject), tool, options),
  toBeTerminal: (subject: RunSubject) => checks.terminal(viewOf(subject)),
  toHaveStopped: (subject: RunSubject, _equals: Equals, reason: string) => checks.stopped(viewOf(subject), reason),
  toHaveHandedOffTo: (subject: RunSubject, _equals: Equals, agents: string | readonly string[]) => checks.handedOffTo(viewOf(subject), agents),
  toHaveCalledTool: (subject: RunSubject, equals: Equals, name: string, input?: unknown) => checks.calledTool(viewOf(subject), name, input, equals),
  toHaveCalledToolTimes: (subject: RunSubject, _equals: Equals, name: string, times: number) => checks.calledToolTimes(viewOf(subject), name, times),
  toHaveToolSequence: (subject: RunSubject, _equals: Equals, names: readonly string[], options?: { mode?: SequenceMode }) =>
    checks.toolSequence(viewOf(subject), names, options?.mode ?? 'exact'),
  toHavePlannedEffect: (subject: RunSubject, equals: Equals, tool: string, input?: unknown) => checks.plannedEffect(viewOf(subject), tool, input, equals),
  toBeSuspended: (subject: RunSubject) => checks.suspended(viewOf(subject)),
  toHaveInvalidArgument: (subject: RunSubject, _equals: Equals, tool: string, options?: { argument?: string; code?: string }) => checks.invalidArgument(viewOf(subject), tool, options),
  toHaveNoToolFailures: (subject: RunSubject) => checks.noToolFailures(viewOf(subject)),
  toBeComplete: (subject: RunSubject) => checks.complete(viewOf(subject)),
  toHaveUsageBelow: (subject: RunSubject, _equals: Equals, limits: { inputTokens?: number; outputTokens?: number }) => checks.usageBelow(viewOf(subject), limits),
} satisfies Record<string, (subject: RunSubject, equals: Equals, ...args: never[]) => CheckOutcome>;

/** legate's matchers, typed for `expect(result)`; `R` is what each returns (vitest's assertion). */
export interface LegateMatchers<R = unknown> {
  /** The run read untrusted content (optionally from this tool). */
  toBeTainted(options?: { source?: string }): R;
  /** A guard (or a person) refused a call (optionally of this tool, by this rule, from this taint source). */
  toHaveBlocked(tool?: string, options?: { rule?: string; source?: string }): R;
  /** The run ended through its terminal tool. */
  toBeTerminal(): R;
  /** The run stopped for this reason (`end_turn`, `max_tokens`, `refusal`, `terminal`, `suspended`, ...). */
  toHaveStopped(reason: string): R;
  /** The conversation ended with this agent after a handoff, or went along exactly this chain. */
  toHaveHandedOffTo(agents: string | readonly string[]): R;
  /** The model called this tool (with an input equal to this one; asymmetric matchers work). */
  toHaveCalledTool(name: string, input?: unknown): R;
  toHaveCalledToolTimes(name: string, times: number): R;
  /**
   * The tools the model called, in order: `exact` (default), `inOrder` (these in this order, others
   * allowed between), `anyOrder` (exactly these, any order), `atLeast` (these and maybe more),
   * `atMost` (only tools from these).
   */
  toHaveToolSequence(names: readonly string[], options?: { mode?: SequenceMode }): R;
  /** Shadow mode planned an effect of this tool (with this input, as the model sent it). */
  toHavePlannedEffect(tool: string, input?: unknown): R;
  toBeSuspended(): R;
  /** The binder refused a call of this tool (optionally for this argument, with this code). */
  toHaveInvalidArgument(tool: string, options?: { argument?: string; code?: string }): R;
  toHaveNoToolFailures(): R;
  /** Ended normally: not cut off by max_tokens, refused, suspended or out of turns. */
  toBeComplete(): R;
  toHaveUsageBelow(limits: { inputTokens?: number; outputTokens?: number }): R;
}
