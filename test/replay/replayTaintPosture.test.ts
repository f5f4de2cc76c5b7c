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
  type AgentFactory,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

/** The header records each tool's provenance declarations and effective policy on taint; a replay reports changes. */

const tempDir = useTempDir();

interface Posture {
  sensitive?: string[];
  outsideAuthored?: string[];
  toolOnTaint?: 'block' | 'approve';
  agentOnTaint?: 'block' | 'approve';
}
const recorded: Posture = { sensitive: ['recipient'], outsideAuthored: ['[].subject'], agentOnTaint: 'approve' };

function factory(p: Posture): AgentFactory {
  const list = defineTool({
    name: 'list_transactions',
    description: 'Lists transactions.',
    input: { type: 'object', properties: {} },
    untrusted: true,
    ...(p.outsideAuthored === undefined ? {} : { outsideAuthored: p.outsideAuthored }),
    run: () => [{ subject: 'rent' }],
  });
  const send = defineTool({
    name: 'send_money',
    description: 'Sends money.',
    input: { type: 'object', properties: { recipient: { type: 'string' } } },
    privileged: true,
    ...(p.sensitive === undefined ? {} : { sensitive: p.sensitive }),
    ...(p.toolOnTaint === undefined ? {} : { onTaint: p.toolOnTaint }),
    run: () => 'sent',
  });
  return (transport) =>
    new Agent({
      name: 'bank',
      model: 'claude-haiku-5-5',
      tools: [list, send],
      transport,
      ...(p.agentOnTaint === undefined ? {} : { onTaint: p.agentOnTaint }),
    });
}

async function recording(): Promise<string> {
  const file = join(tempDir(), 'bank.yaml');
  const script = () => new ScriptedTransport([reply.toolUse('list_transactions', {}), reply.text('Rent.')]);
  await runTrajectory({ file, agent: factory(recorded), input: 'List.', mode: 'record', transport: script });
  return file;
}

describe('the taint posture in the trajectory header', () => {
  it('records sensitive, outsideAuthored, and onTaint when the effective policy is approve', async () => {
    const tools = loadTrajectory(await recording()).tools;
    expect(tools[0]).toMatchObject({ name: 'list_transactions', untrusted: true, outsideAuthored: ['[].subject'] });
    expect(tools[0]).not.toHaveProperty('onTaint');
    expect(tools[1]).toMatchObject({
      name: 'send_money',
      privileged: true,
      sensitive: ['recipient'],
      onTaint: 'approve',
    });
  });

  it.each([
    [
      'sensitive removed',
      { sensitive: undefined },
      "tool 'send_money' was sensitive in 'recipient' when recorded and is without sensitive arguments " +
        '(strict taint) now',
    ],
    [
      'outsideAuthored changed',
      { outsideAuthored: ['[].subject', '[].sender'] },
      "tool 'list_transactions' was outside-authored in '[].subject' when recorded and is outside-authored in " +
        "'[].subject', '[].sender' now",
    ],
    [
      "the agent's policy changed",
      { agentOnTaint: undefined },
      "tool 'send_money' was held for a person when tainted when recorded and is blocked when tainted now",
    ],
    [
      "the tool's own policy overrides the agent's",
      { toolOnTaint: 'block' as const },
      "tool 'send_money' was held for a person when tainted when recorded and is blocked when tainted now",
    ],
  ])('a replay reports a posture change: %s', async (_name, change, message) => {
    const file = await recording();
    const error = await runTrajectory({ file, agent: factory({ ...recorded, ...change }), mode: 'replay' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    expect((error as TrajectoryDivergenceError).kind).toBe('tool_changed');
    expect((error as Error).message).toContain(message);
  });

  it('the same posture replays without a change', async () => {
    const file = await recording();
    const result = await runTrajectory({ file, agent: factory(recorded), mode: 'replay' });
    expect(result.result.text).toBe('Rent.');
  });
});
