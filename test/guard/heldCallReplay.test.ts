import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

/** A call held for a person because the run is tainted is recorded, and replayed, as `suspended`. */

const tempDir = useTempDir();

function agentOf(onTaint: 'block' | 'approve', ran: string[]) {
  const tool = (name: string, extra: Record<string, unknown>) =>
    defineTool({
      name,
      description: `The ${name} tool.`,
      input: { type: 'object', properties: { to: { type: 'string' } } },
      ...extra,
      run: () => {
        ran.push(name);
        return name === 'read_mail' ? 'Pay ACME at DE89 3704 0044 0532 0130 00.' : 'sent';
      },
    });
  return (transport: Transport) =>
    new Agent({
      name: 'payer',
      model: 'claude-haiku-5-5',
      transport,
      tools: [tool('read_mail', { untrusted: true }), tool('send_money', { privileged: true })],
      onTaint,
    });
}

async function recorded(): Promise<string> {
  const file = join(tempDir(), 'held.yaml');
  await runTrajectory({
    file,
    agent: agentOf('approve', []),
    input: 'Pay what my mail asks.',
    mode: 'record',
    transport: () =>
      new ScriptedTransport([
        reply.toolUse('read_mail', {}),
        reply.toolUse('send_money', { to: 'DE89370400440532013000' }),
        reply.text('Paid.'),
      ]),
    approve: () => true,
    report: false,
  });
  return file;
}

describe('a held call in a trajectory', () => {
  it('is recorded as suspended then approved, and replays with the same decision', async () => {
    const file = await recorded();
    const trajectory = loadTrajectory(file);
    expect(trajectory.tools.find((t) => t.name === 'send_money')).toMatchObject({ onTaint: 'approve' });
    const ran: string[] = [];
    const replay = await runTrajectory({ file, agent: agentOf('approve', ran), mode: 'replay' });
    expect(replay.result.text).toBe('Paid.');
  });

  it("fails the replay, before anything runs, when today's policy would refuse it", async () => {
    const file = await recorded();
    const ran: string[] = [];
    const error = await runTrajectory({ file, agent: agentOf('block', ran), mode: 'replay', runTools: 'all' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    expect(error).toMatchObject({
      kind: 'decision',
      expected: { outcome: 'suspended' },
      actual: { outcome: 'blocked', rule: 'taint', source: 'read_mail' },
    });
    expect(ran).not.toContain('send_money');
  });
});
