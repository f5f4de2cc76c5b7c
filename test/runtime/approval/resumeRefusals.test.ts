// What a resume refuses before anything runs, each with its code: a suspension of another version or of another
// agent, a pending call left undecided or decided for other input, and a copy altered anywhere, signed or not.
import { describe, expect, it } from 'vitest';
import { reply, type Suspension } from '../../../src/index.js';
import { inputDigest } from '../../../src/runtime/approval/pendingCall.js';
import { decision, lastBlocks, refusal, useTwoPendingPayments } from '../../support/twoPendingPayments.js';

const { paid, agentFor, twoPending } = useTwoPendingPayments();

describe('a suspension is refused, before anything runs', () => {
  it.each([0, 2, '1'])('when its version is %j: unsupported_version', async (version) => {
    const { agent, suspension } = await twoPending();
    const error = await refusal(agent.resume({ ...suspension, version: version as number }, { approve: true }));
    expect(error.code).toBe('unsupported_version');
    expect(error.name).toBe('SuspensionError');
    expect(paid).not.toHaveBeenCalled();
    // Refused before it was claimed: the intact suspension still resumes.
    await expect(agent.resume(suspension, { approve: true })).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('by an agent it does not belong to: wrong_agent', async () => {
    const { suspension } = await twoPending();
    const other = agentFor('someone_else', [reply.text('no')]);
    const error = await refusal(other.resume(suspension, { approve: true }));
    expect(error.code).toBe('wrong_agent');
    expect(error.message).toContain("'payer'");
    expect(paid).not.toHaveBeenCalled();
  });

  it('when a pending call has no decision: undecided', async () => {
    const { agent, suspension } = await twoPending();
    for (const approve of [[], [decision(suspension, 0, true)], [decision(suspension, 1, true)]]) {
      const error = await refusal(agent.resume(suspension, { approve }));
      expect(error.code).toBe('undecided');
    }
    expect(paid).not.toHaveBeenCalled();
    await expect(
      agent.resume(suspension, { approve: [decision(suspension, 0, true), decision(suspension, 1, true)] }),
    ).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('when a decision was given for another input of one of several calls: stale_approval', async () => {
    const { agent, suspension } = await twoPending();
    const stale = { ...decision(suspension, 1, true), inputDigest: suspension.pending[0]!.inputDigest };
    const error = await refusal(agent.resume(suspension, { approve: [decision(suspension, 0, true), stale] }));
    expect(error.code).toBe('stale_approval');
    expect(paid).not.toHaveBeenCalled();
  });
});

describe('an altered suspension is refused (altered), and nothing runs', () => {
  const alterations: [string, (s: Suspension) => void][] = [
    [
      'the conversation copy of a pending call has other input',
      (s) => (lastBlocks(s).find((b) => b.id === s.pending[1]!.id)!.input = { amount: 9000 }),
    ],
    [
      'the conversation copy of a pending call names another tool',
      (s) => (lastBlocks(s).find((b) => b.id === s.pending[0]!.id)!.name = 'lookup'),
    ],
    ['the conversation copy of a pending call is gone', (s) => lastBlocks(s).splice(2, 1)],
    [
      'the conversation copy of a pending call is no longer a tool_use block',
      (s) => (lastBlocks(s).find((b) => b.id === s.pending[0]!.id)!.type = 'text'),
    ],
    ['the conversation is empty', (s) => s.state.messages.splice(0)],
    [
      'the conversation ends with a message after the calls',
      (s) => s.state.messages.push({ role: 'user', content: 'approve it all' }),
    ],
    ['the pending call names another tool', (s) => (s.pending[0]!.tool = 'lookup')],
    ['the pending call has another id', (s) => (s.pending[0]!.id = 'toolu_forged')],
    [
      'the pending digest was changed',
      (s) => (s.pending[1]!.inputDigest = inputDigest(s.pending[0]!.id, 'send_payment', { amount: 10 })),
    ],
  ];

  it.each(alterations)('%s', async (_what, alter) => {
    const { agent, suspension } = await twoPending();
    const altered = structuredClone(suspension);
    alter(altered);
    const error = await refusal(agent.resume(altered, { approve: true }));
    expect(error.code).toBe('altered');
    expect(paid).not.toHaveBeenCalled();
  });

  it.each(alterations)('%s, under a key', async (_what, alter) => {
    const { agent, suspension } = await twoPending({ signed: true });
    const altered = structuredClone(suspension);
    alter(altered);
    expect((await refusal(agent.resume(altered, { approve: true }))).code).toBe('altered');
    expect(paid).not.toHaveBeenCalled();
  });
});
