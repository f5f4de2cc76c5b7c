import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ScriptedTransport,
  SuspensionError,
  reply,
  type ApprovalDecision,
  type Suspension,
} from '../../src/index.js';
import { inputDigest } from '../../src/runtime/suspension.js';
import { paymentTool } from '../support/paymentTool.js';

const model = 'claude-haiku-5-5';
const { pay, paid } = paymentTool();
const KEY = 'k'.repeat(32);

async function suspendedTwo() {
  paid.mockClear();
  const agent = new Agent({
    name: 'payer',
    model,
    tools: [pay],
    transport: new ScriptedTransport([
      reply.toolUses([
        { name: 'send_payment', input: { amount: 1 } },
        { name: 'send_payment', input: { amount: 2 } },
      ]),
      reply.text('done'),
    ]),
    approvalRequired: () => true,
  });
  const result = await agent.run('pay both');
  return { agent, suspension: result.suspension! };
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('decisions are booleans, and only for pending calls', () => {
  it.each([['false'], ['no'], [1], [0], [null], [{}]])(
    'refuses a per-call approve of %j before anything runs',
    async (approve) => {
      const { agent, suspension } = await suspendedTwo();
      const decisions = suspension.pending.map((p) => ({
        id: p.id,
        inputDigest: p.inputDigest,
        approve,
      })) as unknown as ApprovalDecision[];
      const error = await caught(agent.resume(suspension, { approve: decisions }));
      expect(error).toBeInstanceOf(SuspensionError);
      expect(error).toMatchObject({ code: 'invalid_decision' });
      expect(String((error as Error).message)).toContain('true or false');
      expect(paid).not.toHaveBeenCalled();
      // Refused before the claim: the suspension can still be decided properly.
      await expect(agent.resume(suspension, { approve: false })).resolves.toMatchObject({ stopReason: 'end_turn' });
    },
  );

  it.each([['yes'], ['false'], [1], [undefined], [null]])(
    'refuses a top-level approve of %j with a SuspensionError, not a TypeError',
    async (approve) => {
      const { agent, suspension } = await suspendedTwo();
      const error = await caught(agent.resume(suspension, { approve } as never));
      expect(error).toBeInstanceOf(SuspensionError);
      expect(error).toMatchObject({ code: 'invalid_decision' });
      expect(paid).not.toHaveBeenCalled();
    },
  );

  it('refuses a decision for a call that is not pending, and two decisions for one call', async () => {
    const { agent, suspension } = await suspendedTwo();
    const [a, b] = suspension.pending as [Suspension['pending'][0], Suspension['pending'][0]];
    const stray = { id: 'toolu_not_pending', inputDigest: a.inputDigest, approve: true };
    await expect(
      agent.resume(suspension, {
        approve: [
          { id: a.id, inputDigest: a.inputDigest, approve: true },
          { id: b.id, inputDigest: b.inputDigest, approve: true },
          stray,
        ],
      }),
    ).rejects.toMatchObject({ code: 'invalid_decision' });
    const twice = [
      { id: a.id, inputDigest: a.inputDigest, approve: false },
      { id: a.id, inputDigest: a.inputDigest, approve: true },
      { id: b.id, inputDigest: b.inputDigest, approve: false },
    ];
    await expect(agent.resume(suspension, { approve: twice })).rejects.toMatchObject({ code: 'invalid_decision' });
    await expect(
      agent.resume(suspension, {
        approve: [
          { id: a.id, inputDigest: a.inputDigest, approve: true },
          { id: b.id, inputDigest: b.inputDigest, approve: true, reason: 7 as unknown as string },
        ],
      }),
    ).rejects.toMatchObject({ code: 'invalid_decision' });
    expect(paid).not.toHaveBeenCalled();
  });

  it(
    'applies decisions given in another order to the right calls, records who approved what, and says so in the ' +
      'resumed event',
    async () => {
      const { agent, suspension } = await suspendedTwo();
      const [a, b] = suspension.pending as [Suspension['pending'][0], Suspension['pending'][0]];
      const result = await agent.resume(suspension, {
        approve: [
          { id: b.id, inputDigest: b.inputDigest, approve: true },
          { id: a.id, inputDigest: a.inputDigest, approve: false, reason: 'Too small.' },
        ],
      });
      expect(paid.mock.calls).toEqual([[{ amount: 2 }]]);
      expect(result.approvals).toEqual([
        {
          turn: 1,
          decisions: [
            { id: a.id, tool: 'send_payment', approve: false, reason: 'Too small.' },
            { id: b.id, tool: 'send_payment', approve: true },
          ],
        },
      ]);
      expect(result.events.filter((e) => e.type === 'resumed')).toEqual([
        { type: 'resumed', agent: 'payer', turn: 1, approved: [b.id], denied: [a.id] },
      ]);
      expect(result.blocked).toMatchObject([{ id: a.id, rule: 'approval' }]);
    },
  );
});

describe('refusals the review found untested', () => {
  it('wrong_agent: a suspension of an agent this one cannot reach', async () => {
    const { suspension } = await suspendedTwo();
    const other = new Agent({ name: 'other', model, tools: [pay], transport: new ScriptedTransport([]) });
    await expect(other.resume(suspension, { approve: true })).rejects.toMatchObject({ code: 'wrong_agent' });
    expect(paid).not.toHaveBeenCalled();
  });

  it('unsupported_version: another version', async () => {
    const { agent, suspension } = await suspendedTwo();
    await expect(agent.resume({ ...suspension, version: 2 }, { approve: true })).rejects.toMatchObject({
      code: 'unsupported_version',
    });
    expect(paid).not.toHaveBeenCalled();
  });

  it('undecided: a pending call without a decision', async () => {
    const { agent, suspension } = await suspendedTwo();
    const a = suspension.pending[0]!;
    await expect(
      agent.resume(suspension, { approve: [{ id: a.id, inputDigest: a.inputDigest, approve: true }] }),
    ).rejects.toMatchObject({ code: 'undecided' });
    expect(paid).not.toHaveBeenCalled();
  });

  it('altered: the conversation copy of a pending call changed, the pending record left as it was', async () => {
    const { agent, suspension } = await suspendedTwo();
    const altered = structuredClone(suspension);
    const last = altered.state.messages[altered.state.messages.length - 1]!;
    const block = (last.content as { type: string; id?: string; input?: unknown; name?: string }[]).find(
      (b) => b.id === suspension.pending[1]!.id,
    )!;
    block.input = { amount: 9000 };
    await expect(agent.resume(altered, { approve: true })).rejects.toMatchObject({ code: 'altered' });
    const renamed = structuredClone(suspension);
    const lastRenamed = renamed.state.messages[renamed.state.messages.length - 1]!;
    (lastRenamed.content as { id?: string; name?: string }[]).find((b) => b.id === suspension.pending[0]!.id)!.name =
      'lookup';
    await expect(agent.resume(renamed, { approve: true })).rejects.toMatchObject({ code: 'altered' });
    expect(paid).not.toHaveBeenCalled();
  });

  it('altered: a signature of the wrong length, and one cut short', async () => {
    paid.mockClear();
    const agent = new Agent({
      name: 'payer',
      model,
      tools: [pay],
      transport: new ScriptedTransport([reply.toolUse('send_payment', { amount: 5 })]),
      approvalRequired: () => true,
      suspensionKey: KEY,
    });
    const { suspension } = await agent.run('pay');
    for (const signature of [`${suspension!.signature!}00`, suspension!.signature!.slice(0, -2), 'hmac-sha256:', '']) {
      await expect(agent.resume({ ...suspension!, signature }, { approve: true })).rejects.toMatchObject({
        code: 'altered',
      });
    }
    expect(paid).not.toHaveBeenCalled();
  });
});

describe('suspension keys', () => {
  it.each([[''], ['short'], ['k'.repeat(31)], [new Uint8Array(16)], [42]])(
    'refuses %j at construction',
    (suspensionKey) => {
      const make = () =>
        new Agent({
          name: 'payer',
          model,
          tools: [pay],
          transport: new ScriptedTransport([]),
          suspensionKey: suspensionKey as string,
        });
      expect(make).toThrow(AgentConfigurationError);
      expect(make).toThrow(/at least 32 bytes/);
    },
  );

  it('accepts a key of 32 bytes, as a string or as bytes', () => {
    expect(
      () => new Agent({ name: 'a', model, transport: new ScriptedTransport([]), suspensionKey: KEY }),
    ).not.toThrow();
    expect(
      () => new Agent({ name: 'a', model, transport: new ScriptedTransport([]), suspensionKey: new Uint8Array(32) }),
    ).not.toThrow();
  });

  it('a handoff target signs with its own key; a forgery is refused when resumed via the starting agent', async () => {
    paid.mockClear();
    const script = new ScriptedTransport([
      reply.toolUse('handoff_to_billing', {}),
      reply.toolUse('send_payment', { amount: 5 }),
      reply.text('Paid.'),
    ]);
    const billing = new Agent({
      name: 'billing',
      model,
      tools: [pay],
      transport: script,
      approvalRequired: (tool) => tool.privileged,
      suspensionKey: KEY,
    });
    const front = new Agent({
      name: 'front',
      model,
      transport: script,
      handoffs: [{ name: 'billing', agent: billing, description: 'Billing.' }],
    });
    const { suspension } = await front.run('pay');
    expect(suspension).toMatchObject({ agent: 'billing', signature: expect.stringMatching(/^hmac-sha256:/) });
    const forged: Suspension = structuredClone(suspension!);
    delete forged.signature;
    forged.pending[0]!.input = { amount: 9000 };
    forged.pending[0]!.inputDigest = inputDigest(forged.pending[0]!.id, 'send_payment', { amount: 9000 });
    const last = forged.state.messages[forged.state.messages.length - 1]!;
    (last.content as { type: string; input?: unknown }[]).find((b) => b.type === 'tool_use')!.input = { amount: 9000 };
    await expect(front.resume(forged, { approve: true })).rejects.toMatchObject({ code: 'altered' });
    expect(paid).not.toHaveBeenCalled();
    await expect(front.resume(suspension!, { approve: true })).resolves.toMatchObject({
      stopReason: 'end_turn',
      agent: 'billing',
    });
    expect(paid).toHaveBeenCalledTimes(1);
  });
});

describe('properties over decisions and keys', () => {
  const notBoolean = fc.anything().filter((value) => typeof value !== 'boolean');

  it('any approve that is not a boolean, top-level or per call, is refused before anything runs', async () => {
    const { agent, suspension } = await suspendedTwo();
    await fc.assert(
      // (An empty list is a list of decisions that decides nothing: `undecided`, pinned above.)
      fc.asyncProperty(
        notBoolean.filter((value) => !(Array.isArray(value) && value.length === 0)),
        fc.boolean(),
        async (approve, perCall) => {
          const given = perCall
            ? suspension.pending.map((p) => ({ id: p.id, inputDigest: p.inputDigest, approve }))
            : approve;
          const error = await caught(agent.resume(suspension, { approve: given } as never));
          expect(error).toBeInstanceOf(SuspensionError);
          expect(error).toMatchObject({ code: 'invalid_decision' });
        },
      ),
      { numRuns: 200 },
    );
    expect(paid).not.toHaveBeenCalled();
  });

  it('a key is accepted exactly when it has at least 32 bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 48 }), fc.uint8Array({ maxLength: 48 })),
        (suspensionKey) => {
          const bytes = typeof suspensionKey === 'string' ? Buffer.byteLength(suspensionKey) : suspensionKey.byteLength;
          const make = () => new Agent({ name: 'a', model, transport: new ScriptedTransport([]), suspensionKey });
          if (bytes >= 32) expect(make).not.toThrow();
          else expect(make).toThrow(AgentConfigurationError);
        },
      ),
    );
  });
});
