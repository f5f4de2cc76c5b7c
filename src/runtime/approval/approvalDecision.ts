import { describeValue } from '../../json/describeValue.js';
import type { PendingCall } from './pendingCall.js';

/** A person's decision on one pending call, bound to the input they saw. */
export interface ApprovalDecision {
  id: string;
  /** The pending call's `inputDigest`: an approval given for other arguments does not apply. */
  inputDigest: string;
  /** `true` runs the call, `false` refuses it; nothing else is a decision. */
  approve: boolean;
  /** Told to the model when the call is denied. */
  reason?: string;
}

/** What each pending call was decided, by tool_use id. */
export type Decisions = Map<string, { approve: boolean; reason?: string }>;

/** Why the decisions cannot be applied; the caller maps it to its error. */
type DecisionProblem = { code: 'invalid_decision' | 'undecided' | 'stale_approval'; message: string };

/**
 * Reads a caller's decisions strictly: `approve` is the boolean `true` or `false` (a string such
 * as 'false' or 'no', a number or null is refused, never taken for truthy), every decision names a
 * pending call once, and every pending call has one, given for its current input.
 */
export function readDecisions(
  pending: readonly PendingCall[],
  approve: unknown,
  reason: unknown,
): Decisions | DecisionProblem {
  const invalid = (message: string): DecisionProblem => ({
    code: 'invalid_decision',
    message: `${message} Nothing was run.`,
  });
  if (reason !== undefined && typeof reason !== 'string')
    return invalid(`'reason' must be a string, but it was ${describeValue(reason)}.`);
  const decisions: Decisions = new Map();
  if (typeof approve === 'boolean') {
    for (const call of pending) decisions.set(call.id, { approve, ...(reason === undefined ? {} : { reason }) });
    return decisions;
  }
  if (!Array.isArray(approve)) {
    return invalid(
      `'approve' must be true or false for every pending call, or a list of { id, inputDigest, approve: true ` +
        `or false }, but it was ${describeValue(approve)}.`,
    );
  }
  const pendingById = new Map(pending.map((call) => [call.id, call]));
  for (const [i, entry] of (approve as unknown[]).entries()) {
    const decision = entry as Partial<Record<keyof ApprovalDecision, unknown>> | null;
    if (typeof decision !== 'object' || decision === null)
      return invalid(`approve[${i}] must be { id, inputDigest, approve }, but it was ${describeValue(entry)}.`);
    if (typeof decision.approve !== 'boolean')
      return invalid(`approve[${i}].approve must be true or false, but it was ${describeValue(decision.approve)}.`);
    if (decision.reason !== undefined && typeof decision.reason !== 'string')
      return invalid(`approve[${i}].reason must be a string, but it was ${describeValue(decision.reason)}.`);
    const call = typeof decision.id === 'string' ? pendingById.get(decision.id) : undefined;
    if (call === undefined) {
      return invalid(
        `approve[${i}] is for ${describeValue(decision.id)}, which is not a pending call of this suspension ` +
          `(pending: ${[...pendingById.keys()].join(', ')}).`,
      );
    }
    if (decisions.has(call.id))
      return invalid(`approve[${i}] decides ${call.id} a second time; give one decision per pending call.`);
    if (decision.inputDigest !== call.inputDigest) {
      const given = describeValue(decision.inputDigest);
      return {
        code: 'stale_approval',
        message:
          `The decision for ${call.id} ('${call.tool}') was given for other arguments (${given}, ` +
          `now ${call.inputDigest}); nothing was run.`,
      };
    }
    const why = decision.reason ?? reason;
    decisions.set(call.id, { approve: decision.approve, ...(why === undefined ? {} : { reason: why as string }) });
  }
  const undecided = pending.find((call) => !decisions.has(call.id));
  if (undecided !== undefined)
    return {
      code: 'undecided',
      message: `Pending call ${undecided.id} ('${undecided.tool}') has no decision; decide every pending call.`,
    };
  return decisions;
}
