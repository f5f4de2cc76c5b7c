import { isAttempt } from './attempt.js';
import type { CompiledRules, ToolFacts } from './guardContext.js';
import { addTaintSource, taintSourcesOf, type GuardState } from './guardState.js';
import { copyToolRecord, toolRecordValue } from './toolRecord.js';

/** One call's outcome, as the guard needs it. */
export interface CallOutcome {
  id: string;
  name: string;
  /** True when the guard let the call through (an attempt, if the agent has a tool of its name). */
  allowed: boolean;
  /** True when the tool ran and succeeded. */
  succeeded: boolean;
  /**
   * True when the model was shown what the tool wrote: its output, or an error result it returned
   * (`toolError`). A success implies it; a thrown error is not: the model learns only its class.
   */
  toolWrote?: boolean;
}

/**
 * The state after a response's calls finished: attempts counted ({@link isAttempt}), successes remembered for
 * prerequisites, every untrusted tool whose own words the model read (a success, or an error result it
 * returned) is a taint source (the first one taints), the first terminal success ends the run. Pure: returns a
 * new state.
 */
export function applyOutcomes(
  state: GuardState,
  outcomes: readonly CallOutcome[],
  turn: number,
  tools: ReadonlyMap<string, ToolFacts>,
  rules: CompiledRules,
): GuardState {
  const next: GuardState = {
    taint: state.taint,
    taintSources: [...taintSourcesOf(state)],
    successes: copyToolRecord(state.successes),
    attempts: copyToolRecord(state.attempts),
    terminatedBy: state.terminatedBy,
  };
  for (const outcome of outcomes) {
    if (isAttempt(outcome, tools))
      next.attempts[outcome.name] = (toolRecordValue(next.attempts, outcome.name) ?? 0) + 1;
    if ((outcome.succeeded || outcome.toolWrote === true) && tools.get(outcome.name)?.untrusted === true)
      addTaintSource(next, { source: outcome.name, id: outcome.id });
    if (!outcome.succeeded) continue;
    if (toolRecordValue(next.successes, outcome.name) === undefined) next.successes[outcome.name] = turn;
    if (next.terminatedBy === null && rules.terminal.has(outcome.name))
      next.terminatedBy = { tool: outcome.name, id: outcome.id };
  }
  return next;
}
