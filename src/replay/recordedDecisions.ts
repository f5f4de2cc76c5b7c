import type { ApprovalDecision } from '../runtime/approval/approvalDecision.js';
import type { AgentResult } from '../runtime/agentResult.js';
import type { Trajectory } from '../trajectory/types.js';

/** The decisions recorded for the turn a replayed run stopped on, bound to the live pending calls. */
export function recordedDecisions(trajectory: Trajectory, result: AgentResult): ApprovalDecision[] | undefined {
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
