import { describe, expect, it } from 'vitest';
import { loadTrajectory } from '../../src/index.js';
import { NO_RECORDED_DECISION, recordedApprovals } from '../../src/replay/recordedApprovals.js';
import type { Suspension } from '../../src/runtime/agentResult.js';

// legate rerecord applies an old file's approval decisions to the new run: by tool, in order, whatever the call ids.

/** A suspension of run `runId` waiting on these calls (what the decisions read of it). */
function waiting(runId: string, ...tools: string[]): Suspension {
  const pending = tools.map((tool, i) => ({ id: `toolu_new_${i}`, tool, input: {}, inputDigest: `sha256:${i}` }));
  return { runId, pending } as unknown as Suspension;
}

describe('recordedApprovals', () => {
  it('decides each waiting call as the recording decided its tool, in order; denies one it has no decision on', () => {
    const approve = recordedApprovals(loadTrajectory('trajectories/approve-on-taint.yaml'))!;
    // The recording denied the first send_payment and approved the second.
    expect(approve(waiting('run-1', 'send_payment'))).toEqual([
      { id: 'toolu_new_0', inputDigest: 'sha256:0', approve: false, reason: expect.any(String) },
    ]);
    expect(approve(waiting('run-1', 'send_payment', 'send_payment', 'wire_money'))).toEqual([
      { id: 'toolu_new_0', inputDigest: 'sha256:0', approve: true },
      { id: 'toolu_new_1', inputDigest: 'sha256:1', approve: false, reason: NO_RECORDED_DECISION },
      { id: 'toolu_new_2', inputDigest: 'sha256:2', approve: false, reason: NO_RECORDED_DECISION },
    ]);
    // Another run (another sample) starts again from the first decision.
    expect(approve(waiting('run-2', 'send_payment'))[0]!.approve).toBe(false);
  });

  it('gives nothing for a recording that holds no decision: the run stops where it waits', () => {
    expect(recordedApprovals(loadTrajectory('trajectories/tool-loop.yaml'))).toBeUndefined();
  });
});
