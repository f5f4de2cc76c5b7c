import { describe, expect, it } from 'vitest';
import {
  Agent,
  MemoryStateStore,
  OutcomeUnknownError,
  ScriptedTransport,
  SuspensionError,
  defineTool,
  reply,
  type AgentEvent,
  type ClaimRecord,
  type ScriptedReply,
  type StateStore,
  type Suspension,
  type ToolResultBlock,
  type UserMessage,
} from '../../../src/index.js';
import { claimFor } from '../../support/suspendedPayment.js';
import { useTwoPendingPayments } from '../../support/twoPendingPayments.js';

const { paid, twoPending } = useTwoPendingPayments();

/** A payment system that, like a real one, applies a payment once per idempotency key. */
class Ledger {
  readonly calls: { amount: number; key: string | undefined }[] = [];
  readonly applied = new Map<string, number>();
  pay(amount: number, key: string | undefined): void {
    this.calls.push({ amount, key });
    if (key !== undefined && this.applied.has(key)) return;
    this.applied.set(key ?? `unkeyed-${this.calls.length}`, amount);
  }
}

/** A tool whose run can be held at a gate: before or after its effect. */
function setup(options: { hold?: 'before' | 'after'; replies?: ScriptedReply[]; second?: boolean } = {}) {
  const ledger = new Ledger();
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atGate = new Promise<void>((resolve) => (reached = resolve));
  const make = (hold: 'before' | 'after' | undefined, replies: ScriptedReply[]) => {
    const wire = defineTool({
      name: 'wire',
      description: 'Wires money.',
      privileged: true,
      input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      run: async ({ amount }, ctx) => {
        if (hold === 'before') {
          reached();
          await Promise.race([
            gate,
            new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
          ]);
        }
        ledger.pay(amount, ctx.idempotencyKey);
        if (hold === 'after') {
          reached();
          await Promise.race([
            gate,
            new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
          ]);
        }
        return `Wired $${amount}.`;
      },
    });
    return new Agent({
      name: 'treasurer',
      model: 'm',
      tools: [wire],
      transport: new ScriptedTransport(replies),
      approvalRequired: (tool) => tool.privileged,
    });
  };
  const batch = options.second
    ? [
        { name: 'wire', input: { amount: 1 } },
        { name: 'wire', input: { amount: 2 } },
      ]
    : [{ name: 'wire', input: { amount: 250 } }];
  return {
    ledger,
    release: () => release(),
    atGate,
    first: make(options.hold, [reply.toolUses(batch), ...(options.replies ?? [reply.text('Done.')])]),
    /** The agent in a new process: the same tools, no hold. */
    later: (replies: ScriptedReply[] = [reply.text('Recovered.')]) => make(undefined, replies),
  };
}

/** Runs to the suspension, saves it, and starts a resume that stops (like a killed process) where the tool holds. */
async function dieDuringResume(s: ReturnType<typeof setup>, store: StateStore): Promise<Suspension> {
  const { suspension } = await s.first.run('Pay.');
  await store.save(suspension!);
  const controller = new AbortController();
  const resuming = s.first.resume(suspension!, {
    approve: true,
    store,
    signal: controller.signal,
    owner: 'dead-worker',
  });
  await s.atGate;
  controller.abort(new Error('killed'));
  await expect(resuming).rejects.toThrow('killed');
  return suspension!;
}

describe('a resume whose process stopped between its claim and its end', () => {
  it('is listed as claimed, with its owner, and recover refuses while the claim is fresh', async () => {
    const s = setup({ hold: 'after' });
    const store = new MemoryStateStore();
    const suspension = await dieDuringResume(s, store);
    expect(await store.list({ status: 'claimed' })).toEqual([suspension.runId]);
    expect(await store.claimOf(suspension.id)).toMatchObject({
      owner: 'dead-worker',
      status: 'claimed',
      calls: { [suspension.pending[0]!.id]: { state: 'started' } },
    });
    await expect(s.later().recover(suspension, { store })).rejects.toMatchObject({ code: 'claim_active' });
    await expect(s.later().resume(suspension, { approve: true, store })).rejects.toMatchObject({
      code: 'already_resumed',
    });
  });

  it(
    'after its effect: recovery does not run the call again, tells the model and the caller the outcome is ' +
      'unknown',
    async () => {
      const s = setup({ hold: 'after' });
      const store = new MemoryStateStore();
      const suspension = await dieDuringResume(s, store);
      const result = await s.later().recover(suspension, { store, staleAfterMs: 0, owner: 'rescuer' });
      expect(s.ledger.calls).toHaveLength(1);
      const call = result.toolCalls.find((c) => c.id === suspension.pending[0]!.id)!;
      expect(call).toMatchObject({
        outcome: 'error',
        error: { error: 'tool_failed', errorClass: 'OutcomeUnknownError' },
      });
      expect(call.error && 'cause' in call.error ? call.error.cause : undefined).toBeInstanceOf(OutcomeUnknownError);
      expect(String(call.output)).toContain('may or may not have happened');
      expect(result.events.filter((e) => e.type === 'recovered')).toEqual([
        { type: 'recovered', agent: 'treasurer', turn: 1, reused: [], rerun: [], unknown: [suspension.pending[0]!.id] },
      ]);
      expect(result.stopReason).toBe('end_turn');
      expect(await store.claimOf(suspension.id)).toMatchObject({
        owner: 'rescuer',
        status: 'finished',
        calls: { [suspension.pending[0]!.id]: { state: 'unknown' } },
      });
      expect(await store.list({ status: 'claimed' })).toEqual([]);
      await expect(s.later().recover(suspension, { store, staleAfterMs: 0 })).rejects.toMatchObject({
        code: 'already_resumed',
      });
    },
  );

  it(
    'before its effect: the effect runs at most once; with rerun, the tool runs again under the same idempotency ' +
      'key',
    async () => {
      const s = setup({ hold: 'before' });
      const store = new MemoryStateStore();
      const suspension = await dieDuringResume(s, store);
      expect(s.ledger.calls).toHaveLength(0);
      const result = await s.later().recover(suspension, { store, staleAfterMs: 0, rerun: ['wire'] });
      expect(result.events.find((e) => e.type === 'recovered')).toMatchObject({
        rerun: [suspension.pending[0]!.id],
        unknown: [],
      });
      expect(s.ledger.calls).toHaveLength(1);
      expect(s.ledger.calls[0]!.key).toMatch(/^legate-[0-9a-f]{32}$/);
    },
  );

  it('a rerun after the effect happened is absorbed by the idempotency key: the payment is applied once', async () => {
    const s = setup({ hold: 'after' });
    const store = new MemoryStateStore();
    const suspension = await dieDuringResume(s, store);
    await s.later().recover(suspension, { store, staleAfterMs: 0, rerun: ['wire'] });
    expect(s.ledger.calls).toHaveLength(2);
    expect(s.ledger.calls[0]!.key).toBe(s.ledger.calls[1]!.key);
    expect(s.ledger.applied.size).toBe(1);
  });

  it('after the call finished (the model call failed): recovery answers from the record and goes on', async () => {
    const s = setup({ replies: [] });
    const store = new MemoryStateStore();
    const { suspension } = await s.first.run('Pay.');
    await store.save(suspension!);
    await expect(s.first.resume(suspension!, { approve: true, store })).rejects.toThrow();
    expect(s.ledger.calls).toHaveLength(1);
    expect(await store.claimOf(suspension!.id)).toMatchObject({
      status: 'claimed',
      calls: { [suspension!.pending[0]!.id]: { state: 'finished', call: { outcome: 'ok', output: 'Wired $250.' } } },
    });
    const result = await s.later().recover(suspension!, { store, staleAfterMs: 0 });
    expect(s.ledger.calls).toHaveLength(1);
    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'Recovered.' });
    expect(result.toolCalls).toMatchObject([{ outcome: 'ok', output: 'Wired $250.' }]);
    expect(result.events.find((e) => e.type === 'recovered')).toMatchObject({ reused: [suspension!.pending[0]!.id] });
  });

  it('a resume that lost its claim stops at its next record (claim_lost): each call runs once over both', async () => {
    const s = setup({ hold: 'before', second: true });
    const store = new MemoryStateStore();
    const { suspension } = await s.first.run('Pay both.');
    await store.save(suspension!);
    const slow = s.first.resume(suspension!, { approve: true, store });
    await s.atGate;
    const recovered = await s.later().recover(suspension!, { store, staleAfterMs: 0 });
    s.release();
    const error = await slow.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuspensionError);
    expect(error).toMatchObject({ code: 'claim_lost' });
    expect(s.ledger.calls.map((c) => c.amount).sort()).toEqual([1, 2]);
    expect(recovered.toolCalls.map((c) => c.outcome)).toEqual(['error', 'ok']);
  });

  it('applies the decisions recorded with the claim: a denied call stays denied, with its reason', async () => {
    const s = setup({ hold: 'after', second: true });
    const store = new MemoryStateStore();
    const { suspension } = await s.first.run('Pay both.');
    await store.save(suspension!);
    const [a, b] = suspension!.pending as [Suspension['pending'][0], Suspension['pending'][0]];
    const controller = new AbortController();
    const resuming = s.first.resume(suspension!, {
      approve: [
        { id: a.id, inputDigest: a.inputDigest, approve: false, reason: 'Not this one.' },
        { id: b.id, inputDigest: b.inputDigest, approve: true },
      ],
      store,
      signal: controller.signal,
    });
    await s.atGate;
    controller.abort(new Error('killed'));
    await expect(resuming).rejects.toThrow('killed');
    const result = await s.later().recover(suspension!, { store, staleAfterMs: 0, rerun: ['wire'] });
    expect(s.ledger.calls.map((c) => c.amount)).toEqual([2, 2]);
    expect(s.ledger.applied.size).toBe(1);
    expect(result.approvals).toEqual([
      {
        turn: 1,
        decisions: [
          { id: a.id, tool: 'wire', approve: false, reason: 'Not this one.' },
          { id: b.id, tool: 'wire', approve: true },
        ],
      },
    ]);
    expect(result.blocked).toMatchObject([{ id: a.id, rule: 'approval' }]);
  });

  it('not_claimed: there is nothing to recover for a suspension nobody resumed', async () => {
    const s = setup();
    const store = new MemoryStateStore();
    const { suspension } = await s.first.run('Pay.');
    await store.save(suspension!);
    await expect(s.first.recover(suspension!, { store, staleAfterMs: 0 })).rejects.toMatchObject({
      code: 'not_claimed',
    });
  });

  it('gives approved calls, and only them, a stable idempotency key', async () => {
    const keys: (string | undefined)[] = [];
    const tool = (name: string, privileged: boolean) =>
      defineTool({
        name,
        description: 'T.',
        privileged,
        input: { type: 'object', properties: {} },
        run: (_a, ctx) => {
          keys.push(ctx.idempotencyKey);
          return 'ok';
        },
      });
    const agent = () =>
      new Agent({
        name: 'a',
        model: 'm',
        tools: [tool('plain', false), tool('gated', true)],
        transport: new ScriptedTransport([
          reply.toolUses([
            { name: 'plain', input: {} },
            { name: 'gated', input: {} },
          ]),
          reply.text('ok'),
        ]),
        approvalRequired: (t) => t.privileged,
      });
    const gatedAgent = agent();
    const { suspension } = await gatedAgent.run('go');
    await gatedAgent.resume(structuredClone(suspension!), { approve: true });
    const { idempotencyKey } = await import('../../../src/runtime/approval/claimLedger.js');
    expect(keys).toEqual([undefined, idempotencyKey(suspension!.runId, suspension!.pending[0]!.id)]);
  });

  it('records an approved call whose output holds a secret as finished, without its output', async () => {
    const leak = defineTool({
      name: 'rotate_key',
      description: 'R.',
      privileged: true,
      input: { type: 'object', properties: {} },
      run: () => 'New key: sk-ant-api03-NEWSECRETNEWSECRET',
    });
    const agent = new Agent({
      name: 'ops',
      model: 'm',
      tools: [leak],
      transport: new ScriptedTransport([reply.toolUse('rotate_key', {}), reply.text('Rotated.')]),
      approvalRequired: () => true,
    });
    const store = new MemoryStateStore();
    const { suspension } = await agent.run('Rotate the key.');
    await store.save(suspension!);
    const result = await agent.resume(suspension!, { approve: true, store });
    expect(result.toolCalls[0]!.output).toContain('NEWSECRET');
    const claim = await store.claimOf(suspension!.id);
    expect(JSON.stringify(claim)).not.toContain('NEWSECRET');
    expect(claim).toMatchObject({
      status: 'finished',
      calls: {
        [suspension!.pending[0]!.id]: {
          state: 'finished',
          call: { outcome: 'ok', output: "The output of 'rotate_key' was not stored: it held a secret." },
        },
      },
    });
  });
});

describe('what a resume reports as recovered', () => {
  it('a resume, with or without a store, recovers nothing and emits no recovered event', async () => {
    for (const store of [undefined, new MemoryStateStore()]) {
      const { agent, suspension } = await twoPending();
      await store?.save(suspension);
      const events: AgentEvent[] = [];
      const result = await agent.resume(suspension, {
        approve: true,
        ...(store === undefined ? {} : { store }),
        onEvent: (event) => events.push(event),
      });
      expect(result.stopReason).toBe('end_turn');
      expect(events.map((e) => e.type)).not.toContain('recovered');
      expect(result.events.map((e) => e.type)).not.toContain('recovered');
    }
  });
});

/** A MemoryStateStore that keeps every record written over a claim, in order. */
class RecordingStore extends MemoryStateStore {
  readonly updates: ClaimRecord[] = [];
  override async updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean> {
    this.updates.push(structuredClone(record));
    return super.updateClaim(suspensionId, owner, record);
  }
}

describe('recovering calls whose outcome is unknown', () => {
  /** Two pending payments claimed by an older legate, which recorded neither its decisions nor its progress. */
  async function claimedByAnOlderLegate() {
    const { agent, suspension } = await twoPending();
    const store = new RecordingStore();
    await store.save(suspension);
    expect(await store.claim(suspension.runId, suspension.id, { ...claimFor(suspension), owner: 'older' })).toBe(true);
    return { agent, suspension, store };
  }

  it('runs none of them, reports them unknown, and records nothing more about them than the takeover did', async () => {
    const { agent, suspension, store } = await claimedByAnOlderLegate();
    const result = await agent.recover(suspension, {
      store,
      staleAfterMs: 0,
      owner: 'rescuer',
      rerun: ['send_payment'],
    });
    expect(paid).not.toHaveBeenCalled();
    expect(result.toolCalls.map((c) => [c.id, c.outcome])).toEqual([
      ['toolu_s1_1', 'error'],
      ['toolu_s1_2', 'ok'],
      ['toolu_s1_3', 'error'],
    ]);
    expect(result.events.filter((e) => e.type === 'recovered')).toEqual([
      { type: 'recovered', agent: 'payer', turn: 1, reused: [], rerun: [], unknown: ['toolu_s1_1', 'toolu_s1_3'] },
    ]);
    const unknown = { toolu_s1_1: { state: 'unknown' }, toolu_s1_3: { state: 'unknown' } };
    // The takeover marked them unknown; the only write after it is the claim's end.
    expect(store.updates.map((u) => [u.owner, u.status, u.calls])).toEqual([
      ['rescuer', 'claimed', unknown],
      ['rescuer', 'finished', unknown],
    ]);
  });

  it('tells the model, and the caller through an OutcomeUnknownError, which call it is and what to do', async () => {
    const { agent, suspension, store } = await claimedByAnOlderLegate();
    const result = await agent.recover(suspension, { store, staleAfterMs: 0 });
    const told =
      "Tool 'send_payment' was approved and started, but the process running it stopped before its outcome was " +
      'recorded. It was not run again, so its effect may or may not have happened. Do not call it again; tell the ' +
      'user it needs checking.';
    const call = result.toolCalls[0]!;
    expect(call).toMatchObject({
      id: 'toolu_s1_1',
      name: 'send_payment',
      input: { amount: 10 },
      outcome: 'error',
      output: told,
      turn: 1,
      error: { error: 'tool_failed', tool: 'send_payment', errorClass: 'OutcomeUnknownError', message: told },
    });
    const answers = (result.messages[2] as UserMessage).content as ToolResultBlock[];
    expect(answers[0]).toMatchObject({ tool_use_id: 'toolu_s1_1', is_error: true, content: told });
    const cause = (call.error as { cause: unknown }).cause as OutcomeUnknownError;
    expect(cause).toBeInstanceOf(OutcomeUnknownError);
    expect([cause.code, cause.tool, cause.callId]).toEqual(['outcome_unknown', 'send_payment', 'toolu_s1_1']);
    expect(cause.message).toBe(
      "Approved call toolu_s1_1 ('send_payment') was started by a resume whose process stopped before its outcome " +
        'was recorded; it was not run again. Check whether its effect happened.',
    );
  });
});
