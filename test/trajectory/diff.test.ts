import { describe, expect, it } from 'vitest';
import { diffTrajectories, loadTrajectory, summarizeChanges } from '../../src/index.js';

describe('diffTrajectories', () => {
  const base = loadTrajectory('trajectories/handoff-to-billing.yaml');

  it('finds nothing between a trajectory and itself, recording time and versions aside', () => {
    expect(
      diffTrajectories(base, { ...structuredClone(base), recordedAt: '2030-01-01T00:00:00.000Z', legate: '9.9.9' }),
    ).toEqual([]);
  });

  it('reports a changed agent, a changed decision and a changed text, each located to its turn', () => {
    const changed = structuredClone(base);
    changed.turns[1]!.agent = 'triage';
    changed.turns[3]!.response.content = [{ text: 'Something else.' }];
    expect(summarizeChanges(diffTrajectories(base, changed))).toBe('turn 2 at agent; turn 4 at content[0].text');
    const approvals = loadTrajectory('trajectories/approval-denied.yaml');
    const flipped = structuredClone(approvals);
    flipped.turns[0]!.approvals![0]!.approve = true;
    expect(diffTrajectories(approvals, flipped)[0]).toMatchObject({
      where: 'turn 1',
      path: 'approvals[0].approve',
      before: false,
      after: true,
    });
  });
});
