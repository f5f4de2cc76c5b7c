import type { AgentResult } from '../runtime/agentResult.js';
import type { Trajectory } from '../trajectory/types.js';
import type { RunView } from '../replay/runView.js';
import { describeTimeline } from '../replay/describeTimeline.js';

/**
 * Deep equality as the framework in use defines it: inside a vitest matcher, vitest's own with the
 * equality testers registered through `expect.addEqualityTesters` (asymmetric matchers work);
 * elsewhere, Node's `isDeepStrictEqual`.
 */
export type Equals = (actual: unknown, expected: unknown) => boolean;

/** A run under check: the facts it is checked on, and the equality to compare arguments with. */
export interface CheckedRun {
  view: RunView;
  /** The run as given, for a check that needs more than the view (the audit reads the whole trajectory). */
  subject: AgentResult | Trajectory;
  equals: Equals;
}

/** The result of one check: whether it passed, and what to say in either direction. */
export interface CheckOutcome {
  pass: boolean;
  message(negated: boolean): string;
  expected?: unknown;
  actual?: unknown;
}

/**
 * `what` reads after "expected the run to"; `but` says what happened instead (used when the
 * check fails) and `and` what did happen (used when a negated check fails).
 */
export function outcome(
  view: RunView,
  pass: boolean,
  what: string,
  but: string,
  and: string,
  diff?: { expected: unknown; actual: unknown },
): CheckOutcome {
  return {
    pass,
    message: (negated) =>
      `expected the run ${negated ? 'not ' : ''}to ${what}, ${negated ? and : but}.\n\n${describeTimeline(view)}`,
    ...(diff ?? {}),
  };
}
