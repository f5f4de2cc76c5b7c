import type { ApprovalDecision } from '../runtime/approval/approvalDecision.js';
import type { Suspension } from '../runtime/agentResult.js';
import type { Trajectory } from '../trajectory/types.js';

/** The reason given to the model for a call the old recording holds no decision for. */
export const NO_RECORDED_DECISION =
  'The recording this run was recorded again from holds no decision on this call, so it was denied.';

/**
 * Decides a new run's calls that wait for approval as a recording of the same input decided them, for recording
 * that input again (`legate rerecord`): the n-th call of a tool to wait gets the n-th decision the recording holds
 * on a call of that tool (approved or denied, with its reason), whatever the call's id, which a live model makes
 * anew; each run (each sample) starts again from the first decision. A call of a tool the recording holds no
 * further decision on is denied, the model told why ({@link NO_RECORDED_DECISION}). Undefined for a recording that
 * holds no decision: the run stops where it waits, as the recording did.
 */
export function recordedApprovals(
  trajectory: Trajectory,
): ((suspension: Suspension) => ApprovalDecision[]) | undefined {
  const byTool = new Map<string, { approve: boolean; reason?: string }[]>();
  for (const turn of trajectory.turns) {
    const tools = new Map(
      turn.response.content.flatMap((block) => ('toolUse' in block ? [[block.toolUse.id, block.toolUse.name]] : [])),
    );
    for (const approval of turn.approvals ?? []) {
      const tool = tools.get(approval.id);
      if (tool === undefined) continue;
      const decisions = byTool.get(tool) ?? [];
      decisions.push({
        approve: approval.approve,
        ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      });
      byTool.set(tool, decisions);
    }
  }
  if (byTool.size === 0) return undefined;
  // How many decisions on each tool each run has taken: every run (each sample is one) starts from the first.
  const taken = new Map<string, Map<string, number>>();
  return (suspension) => {
    const counts = taken.get(suspension.runId) ?? new Map<string, number>();
    taken.set(suspension.runId, counts);
    return suspension.pending.map((call) => {
      const n = counts.get(call.tool) ?? 0;
      counts.set(call.tool, n + 1);
      const recorded = byTool.get(call.tool)?.[n] ?? { approve: false, reason: NO_RECORDED_DECISION };
      return { id: call.id, inputDigest: call.inputDigest, ...recorded };
    });
  };
}
