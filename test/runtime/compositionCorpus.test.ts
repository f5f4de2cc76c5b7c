import { describe, expect, it, vi } from 'vitest';
import { createTriage, issueRefund } from '../../examples/desk/agent.js';
import { createPlanner, publishPost } from '../../examples/research/agent.js';
import { createTreasurer, wireMoney } from '../../examples/treasury/agent.js';
import { ScriptedTransport, loadTrajectory, reply, runTrajectory } from '../../src/index.js';
import { join } from 'node:path';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

describe('composition and approval trajectories', () => {
  it("replay a handoff: every turn names its agent, and the result is billing's", async () => {
    const trajectory = loadTrajectory('trajectories/handoff-to-billing.yaml');
    expect(trajectory.turns.map((t) => t.agent ?? trajectory.agent)).toEqual([
      'triage',
      'billing',
      'billing',
      'billing',
    ]);
    const { result } = await runTrajectory({
      file: 'trajectories/handoff-to-billing.yaml',
      agent: createTriage,
      mode: 'replay',
    });
    expect(result.agent).toBe('billing');
    expect(result.handoffs).toMatchObject([{ from: 'triage', to: 'billing', reason: 'a refund for order A-1001' }]);
  });

  it(
    "replay taint crossing a handoff: billing's refund is blocked with the attachment as its source, and never " +
      'runs',
    async () => {
      const refund = vi.spyOn(issueRefund, 'run');
      const { result } = await runTrajectory({
        file: 'trajectories/taint-crosses-handoff.yaml',
        agent: createTriage,
        mode: 'replay',
      });
      expect(result.blocked).toMatchObject([{ tool: 'issue_refund', rule: 'taint', source: 'read_attachment' }]);
      expect(refund).not.toHaveBeenCalled();
      refund.mockRestore();
    },
  );

  it('replay a researcher sub-agent whose web read taints its caller', async () => {
    const publish = vi.spyOn(publishPost, 'run');
    const { result } = await runTrajectory({
      file: 'trajectories/researcher-taints-caller.yaml',
      agent: createPlanner,
      mode: 'replay',
    });
    expect(result).toMatchObject({ tainted: true, taintSource: 'ask_researcher' });
    expect(result.blocked).toMatchObject([{ tool: 'publish_post', rule: 'taint' }]);
    expect(publish).not.toHaveBeenCalled();
    publish.mockRestore();
  });

  it('replay an approval granted and one denied, applying the recorded decisions', async () => {
    const wire = vi.spyOn(wireMoney, 'run');
    const granted = await runTrajectory({
      file: 'trajectories/approval-granted.yaml',
      agent: createTreasurer,
      mode: 'replay',
    });
    expect(granted.result.stopReason).toBe('end_turn');
    // wire_money is privileged: the approved call is answered from the recording, never made again.
    expect(wire).not.toHaveBeenCalled();
    expect(granted.result.toolCalls[0]).toMatchObject({ outcome: 'ok', output: 'Wired $1200 to Acme Supplies.' });
    // Asked to run every tool, the replay makes the approved call, once.
    await runTrajectory({
      file: 'trajectories/approval-granted.yaml',
      agent: createTreasurer,
      mode: 'replay',
      runTools: 'all',
    });
    expect(wire).toHaveBeenCalledTimes(1);
    const denied = await runTrajectory({
      file: 'trajectories/approval-denied.yaml',
      agent: createTreasurer,
      mode: 'replay',
      runTools: 'all',
    });
    expect(denied.result.blocked).toMatchObject([{ tool: 'wire_money', rule: 'approval' }]);
    expect(wire).toHaveBeenCalledTimes(1);
    expect(loadTrajectory('trajectories/approval-denied.yaml').turns[0]!.approvals).toEqual([
      { id: 'toolu_s1_1', approve: false, reason: 'Globex is not an approved supplier.' },
    ]);
    wire.mockRestore();
  });

  it('record a run that ends suspended, and replay it to the same suspension', async () => {
    const file = join(tempDir(), 'waiting.yaml');
    const script = () => new ScriptedTransport([reply.toolUse('wire_money', { supplier: 'Initech', amount: 10 })]);
    const recorded = await runTrajectory({
      file,
      agent: createTreasurer,
      input: 'Pay Initech $10.',
      mode: 'record',
      transport: script,
    });
    expect(recorded.result.stopReason).toBe('suspended');
    const trajectory = loadTrajectory(file);
    expect(trajectory.summary.stopReason).toBe('suspended');
    expect(trajectory.turns[0]!.results).toEqual([
      { id: 'toolu_s1_1', tool: 'wire_money', outcome: 'suspended', content: '' },
    ]);
    const replayed = await runTrajectory({ file, agent: createTreasurer, mode: 'replay' });
    expect(replayed.result.stopReason).toBe('suspended');
    expect(replayed.result.suspension!.pending).toMatchObject([
      { id: 'toolu_s1_1', tool: 'wire_money', input: { supplier: 'Initech', amount: 10 } },
    ]);
  });
});

describe('a sub-agent recorded under its call', () => {
  it('replays from the nested run, and a change inside it is named with the call that ran it', async () => {
    const trajectory = loadTrajectory('trajectories/researcher-taints-caller.yaml');
    const nested = trajectory.turns[0]!.results![0]!.subRun!;
    expect(nested).toMatchObject({ agent: 'researcher', input: 'How did solar output change in 2026?' });
    expect(nested.turns).toHaveLength(2);

    const file = join(tempDir(), 'researcher.yaml');
    const edited = structuredClone(trajectory);
    edited.turns[0]!.results![0]!.subRun!.turns[0]!.results![0]!.content = 'Something else entirely.';
    const { serializeTrajectory } = await import('../../src/index.js');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, serializeTrajectory(edited));
    const error = await runTrajectory({ file, agent: createPlanner, mode: 'replay' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'request', turn: 2, path: 'messages[2].content[0].content' });
    expect((error as Error).message).toContain(
      `${file} (the run inside call toolu_s1_1): the request for turn 2 differs`,
    );
  });
});
