// Behaviours of suspension and resume that the code gets right and that mutation testing showed
// no test pinned down: each refusal code, each altered copy, the decision record.
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  Agent,
  MemoryStateStore,
  OutcomeUnknownError,
  ScriptedTransport,
  SuspensionError,
  defineTool,
  reply,
  type AgentEvent,
  type ApprovalDecision,
  type ClaimRecord,
  type Suspension,
  type ToolResultBlock,
  type UserMessage,
} from '../../src/index.js';
import { checkResume } from '../../src/runtime/resume.js';
import { hasValidSignature, inputDigest, serializable, signatureOf } from '../../src/runtime/suspension.js';
import type { ToolCall } from '../../src/runtime/agentResult.js';
import { paymentTool } from '../support/paymentTool.js';
import { useSpanRecorder } from '../support/spanRecorder.js';
import { claimFor } from '../support/suspendedPayment.js';

const model = 'claude-haiku-5-5';
const key = 'the agent holds this key; the store does not';
const paid = vi.fn((args: { amount: number }) => `Paid $${args.amount}.`);

// Tools and agents are built inside each test (beforeEach), so their schemas are compiled
// while Stryker has a mutant active, not once at module load.
let agentFor: (
  name: string,
  script: ConstructorParameters<typeof ScriptedTransport>[0],
  options?: { signed?: boolean },
) => Agent;

beforeEach(() => {
  paid.mockReset();
  paid.mockImplementation((args: { amount: number }) => `Paid $${args.amount}.`);
  const { pay } = paymentTool(paid);
  const lookup = defineTool({
    name: 'lookup',
    description: 'L.',
    input: { type: 'object', properties: {} },
    run: () => 'balance: $500',
  });
  const broken = defineTool({
    name: 'broken',
    description: 'B.',
    input: { type: 'object', properties: {} },
    run: () => {
      throw new RangeError('out of paper');
    },
  });
  agentFor = (name, script, options = {}) =>
    new Agent({
      name,
      model,
      tools: [pay, lookup, broken],
      transport: new ScriptedTransport(script),
      approvalRequired: (tool) => tool.privileged,
      ...(options.signed === true ? { suspensionKey: key } : {}),
    });
});

/** A run stopped on two payments in one response, between a lookup and after it. */
async function twoPending(options: { signed?: boolean } = {}) {
  const agent = agentFor(
    'payer',
    [
      reply.toolUses([
        { name: 'send_payment', input: { amount: 10 } },
        { name: 'lookup', input: {} },
        { name: 'send_payment', input: { amount: 20 } },
      ]),
      reply.text('Handled.'),
    ],
    options,
  );
  const { suspension } = await agent.run('Pay both invoices.');
  return { agent, suspension: suspension! };
}

function decision(suspension: Suspension, index: number, approve: boolean, reason?: string): ApprovalDecision {
  const pending = suspension.pending[index]!;
  return { id: pending.id, inputDigest: pending.inputDigest, approve, ...(reason === undefined ? {} : { reason }) };
}

function lastBlocks(suspension: Suspension): { type: string; id?: string; name?: string; input?: unknown }[] {
  const last = suspension.state.messages[suspension.state.messages.length - 1]!;
  return last.content as { type: string; id?: string; name?: string; input?: unknown }[];
}

async function refusal(promise: Promise<unknown>): Promise<SuspensionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SuspensionError);
  return error as SuspensionError;
}

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

describe('signatures', () => {
  it('refuse a signature of the wrong length, or of the wrong kind, without throwing anything else', async () => {
    const { agent, suspension } = await twoPending({ signed: true });
    const signature = suspension.signature!;
    for (const wrong of [
      signature.slice(0, -2),
      `${signature}00`,
      '',
      'hmac-sha256:',
      42 as unknown as string,
      signature.toUpperCase(),
    ]) {
      const error = await refusal(agent.resume({ ...suspension, signature: wrong }, { approve: true }));
      expect(error.code).toBe('altered');
    }
    expect(paid).not.toHaveBeenCalled();
    await expect(agent.resume(suspension, { approve: true })).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('refuse a suspension signed under another key', async () => {
    const { agent, suspension } = await twoPending({ signed: true });
    const resigned = { ...suspension, signature: signatureOf(suspension, 'another key') };
    expect((await refusal(agent.resume(resigned, { approve: true }))).code).toBe('altered');
  });

  it('are an HMAC over the canonical contents, the signature itself left out, under a string or byte key', async () => {
    const { suspension } = await twoPending({ signed: true });
    expect(signatureOf(suspension, key)).toBe(suspension.signature);
    const { signature: _s, ...unsigned } = suspension;
    expect(signatureOf(unsigned as Suspension, key)).toBe(suspension.signature);
    expect(hasValidSignature(suspension, key)).toBe(true);
    expect(hasValidSignature(suspension, new TextEncoder().encode(key))).toBe(true);
    expect(hasValidSignature(suspension, 'another key')).toBe(false);
    expect(hasValidSignature(unsigned as Suspension, key)).toBe(false);
    // Key order does not matter; contents do.
    const reordered = Object.fromEntries(Object.entries(suspension).reverse()) as unknown as Suspension;
    expect(hasValidSignature(reordered, key)).toBe(true);
    expect(hasValidSignature({ ...suspension, createdAt: '2000-01-01T00:00:00.000Z' }, key)).toBe(false);
    expect(signatureOf(suspension, key)).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
  });
});

describe('resuming two pending calls', () => {
  it('applies each decision to its own call whatever the order they are given in', async () => {
    const { agent, suspension } = await twoPending();
    const events: AgentEvent[] = [];
    const result = await agent.resume(suspension, {
      approve: [decision(suspension, 1, false, 'Not this one.'), decision(suspension, 0, true)],
      onEvent: (event) => events.push(event),
    });
    expect(paid).toHaveBeenCalledTimes(1);
    expect(paid).toHaveBeenCalledWith({ amount: 10 });
    expect(result.blocked).toMatchObject([{ id: suspension.pending[1]!.id, tool: 'send_payment', rule: 'approval' }]);
    expect(result.blocked[0]!.message).toContain('Their reason: Not this one.');
    // The answers go back in block order, the lookup between them.
    const answers = (result.messages[2] as UserMessage).content as ToolResultBlock[];
    expect(answers.map((a) => [a.tool_use_id, a.is_error === true])).toEqual([
      ['toolu_s1_1', false],
      ['toolu_s1_2', false],
      ['toolu_s1_3', true],
    ]);
    expect(answers[0]!.content).toBe('Paid $10.');
    expect(answers[1]!.content).toBe('balance: $500');
    expect(result.toolCalls.map((c) => `${c.id}:${c.outcome}`)).toEqual([
      'toolu_s1_1:ok',
      'toolu_s1_2:ok',
      'toolu_s1_3:blocked',
    ]);
    expect(events.filter((e) => e.type === 'resumed')).toEqual([
      { type: 'resumed', agent: 'payer', turn: 1, approved: ['toolu_s1_1'], denied: ['toolu_s1_3'] },
    ]);
    const finished = events.filter(
      (e): e is Extract<AgentEvent, { type: 'tool_finished' }> => e.type === 'tool_finished',
    );
    expect(finished.map((e) => [e.agent, e.turn, e.call.id, e.call.outcome])).toEqual([
      ['payer', 1, 'toolu_s1_1', 'ok'],
      ['payer', 1, 'toolu_s1_3', 'blocked'],
    ]);
    expect(result.approvals).toStrictEqual([
      {
        turn: 1,
        decisions: [
          { id: 'toolu_s1_1', tool: 'send_payment', approve: true },
          { id: 'toolu_s1_3', tool: 'send_payment', approve: false, reason: 'Not this one.' },
        ],
      },
    ]);
  });

  it('records one decision for all with the shared reason, and reports every call denied', async () => {
    const { agent, suspension } = await twoPending();
    const events: AgentEvent[] = [];
    const result = await agent.resume(suspension, {
      approve: false,
      reason: 'Disputed.',
      onEvent: (event) => events.push(event),
    });
    expect(paid).not.toHaveBeenCalled();
    expect(result.approvals).toStrictEqual([
      {
        turn: 1,
        decisions: [
          { id: 'toolu_s1_1', tool: 'send_payment', approve: false, reason: 'Disputed.' },
          { id: 'toolu_s1_3', tool: 'send_payment', approve: false, reason: 'Disputed.' },
        ],
      },
    ]);
    expect(events.find((e) => e.type === 'resumed')).toEqual({
      type: 'resumed',
      agent: 'payer',
      turn: 1,
      approved: [],
      denied: ['toolu_s1_1', 'toolu_s1_3'],
    });
    expect(result.blocked.map((b) => b.message)).toEqual([
      "Tool 'send_payment' was not run: a person reviewed the call and did not approve it. Their reason: " +
        'Disputed. Do not try it again; tell the user.',
      "Tool 'send_payment' was not run: a person reviewed the call and did not approve it. Their reason: " +
        'Disputed. Do not try it again; tell the user.',
    ]);
  });

  it('records no reason where none was given, and a decision of its own over the shared one', async () => {
    const { agent, suspension } = await twoPending();
    const events: AgentEvent[] = [];
    const result = await agent.resume(suspension, {
      approve: [decision(suspension, 0, false), decision(suspension, 1, false, 'Too much.')],
      onEvent: (event) => events.push(event),
    });
    expect(result.approvals[0]!.decisions).toStrictEqual([
      { id: 'toolu_s1_1', tool: 'send_payment', approve: false },
      { id: 'toolu_s1_3', tool: 'send_payment', approve: false, reason: 'Too much.' },
    ]);
    expect(result.blocked[0]!.message).toBe(
      "Tool 'send_payment' was not run: a person reviewed the call and did not approve it. Do not try it " +
        'again; tell the user.',
    );
    const withShared = await twoPending();
    const shared = await withShared.agent.resume(withShared.suspension, {
      approve: [decision(withShared.suspension, 0, false), decision(withShared.suspension, 1, false, 'Own.')],
      reason: 'Shared.',
    });
    expect(shared.approvals[0]!.decisions.map((d) => d.reason)).toEqual(['Shared.', 'Own.']);
  });

  it('approves all with true, recording no reason', async () => {
    const { agent, suspension } = await twoPending();
    const result = await agent.resume(suspension, { approve: true });
    expect(paid.mock.calls).toEqual([[{ amount: 10 }], [{ amount: 20 }]]);
    expect(result.approvals).toStrictEqual([
      {
        turn: 1,
        decisions: [
          { id: 'toolu_s1_1', tool: 'send_payment', approve: true },
          { id: 'toolu_s1_3', tool: 'send_payment', approve: true },
        ],
      },
    ]);
    expect(result.blocked).toEqual([]);
  });

  it('checkResume: one entry per pending call, carrying a reason only where one was given', async () => {
    const { suspension } = await twoPending();
    const [a, b] = suspension.pending.map((p) => p.id) as [string, string];
    const approved = checkResume(suspension, 'payer', true, undefined);
    expect([...approved.keys()]).toEqual([a, b]);
    expect(Object.keys(approved.get(a)!)).toEqual(['approve']);
    expect(approved.get(a)).toEqual({ approve: true });
    expect(checkResume(suspension, 'payer', false, 'No.')).toStrictEqual(
      new Map([
        [a, { approve: false, reason: 'No.' }],
        [b, { approve: false, reason: 'No.' }],
      ]),
    );
    expect(
      checkResume(
        suspension,
        'payer',
        [decision(suspension, 1, false, 'Own.'), decision(suspension, 0, true)],
        undefined,
      ),
    ).toStrictEqual(
      new Map([
        [a, { approve: true }],
        [b, { approve: false, reason: 'Own.' }],
      ]),
    );
    expect(
      Object.keys(
        checkResume(
          suspension,
          'payer',
          [decision(suspension, 1, false, 'Own.'), decision(suspension, 0, true)],
          undefined,
        ).get(a)!,
      ),
    ).toEqual(['approve']);
    expect(
      checkResume(suspension, 'payer', [decision(suspension, 0, true), decision(suspension, 1, false)], 'Shared.'),
    ).toStrictEqual(
      new Map([
        [a, { approve: true, reason: 'Shared.' }],
        [b, { approve: false, reason: 'Shared.' }],
      ]),
    );
  });

  it('resumes from the saved copy: the suspension given is not changed', async () => {
    const { agent, suspension } = await twoPending();
    const before = structuredClone(suspension);
    await agent.resume(suspension, { approve: true });
    expect(suspension).toEqual(before);
  });

  it('resumes a suspension saved without planned inputs (none were planned)', async () => {
    const { agent, suspension } = await twoPending();
    const { plannedInputs: _p, ...batch } = suspension.batch;
    await expect(agent.resume({ ...suspension, batch }, { approve: true })).resolves.toMatchObject({
      stopReason: 'end_turn',
    });
  });
});

describe('what a suspension saves', () => {
  it(
    'reduces a thrown value of an earlier call in the batch to its class, as the model was told: its message may ' +
      'hold a credential',
    async () => {
      const agent = agentFor('payer', [
        reply.toolUses([
          { name: 'broken', input: {} },
          { name: 'send_payment', input: { amount: 1 } },
        ]),
        reply.text('ok'),
      ]);
      const { suspension } = await agent.run('go');
      expect(suspension!.batch.answered[0]!.error).toMatchObject({
        error: 'tool_failed',
        cause: { name: 'RangeError' },
      });
      expect(JSON.stringify(suspension)).not.toContain('out of paper');
      expect(JSON.parse(JSON.stringify(suspension))).toEqual(suspension);
    },
  );

  it('serializable: keeps a call without a thrown value as it is, and reduces any thrown value to its class', () => {
    const ok = { id: 'a', name: 't', outcome: 'ok' } as unknown as ToolCall;
    expect(serializable(ok)).toBe(ok);
    const other = { id: 'a', name: 't', outcome: 'error', error: { error: 'invalid_argument' } } as unknown as ToolCall;
    expect(serializable(other)).toBe(other);
    const thrown = {
      id: 'a',
      name: 't',
      outcome: 'error',
      error: { error: 'tool_failed', tool: 't', errorClass: 'String', message: 'm', cause: 'just text' },
    } as unknown as ToolCall;
    expect((serializable(thrown).error as { cause: unknown }).cause).toEqual({ name: 'string' });
    const number = { ...thrown, error: { ...(thrown.error as object), cause: 7 } } as unknown as ToolCall;
    expect((serializable(number).error as { cause: unknown }).cause).toEqual({ name: 'number' });
    const error = {
      ...thrown,
      error: { ...(thrown.error as object), cause: new TypeError('bad') },
    } as unknown as ToolCall;
    const reduced = serializable(error);
    expect((reduced.error as { cause: unknown }).cause).toEqual({ name: 'TypeError' });
    expect(reduced).toMatchObject({
      id: 'a',
      name: 't',
      outcome: 'error',
      error: { error: 'tool_failed', tool: 't', errorClass: 'String', message: 'm' },
    });
  });

  it('binds each pending call to a digest of its id, tool and input', async () => {
    const { suspension } = await twoPending();
    const [first, second] = suspension.pending;
    // No `taint` key at all on a call not held for taint.
    expect(first).toStrictEqual({
      id: 'toolu_s1_1',
      tool: 'send_payment',
      input: { amount: 10 },
      inputDigest: inputDigest('toolu_s1_1', 'send_payment', { amount: 10 }),
    });
    expect(second!.inputDigest).toBe(inputDigest('toolu_s1_3', 'send_payment', { amount: 20 }));
    expect(
      new Set([inputDigest('a', 't', 1), inputDigest('b', 't', 1), inputDigest('a', 'u', 1), inputDigest('a', 't', 2)])
        .size,
    ).toBe(4);
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

describe('the spans of a resume', () => {
  const { spans, started, reset } = useSpanRecorder();
  const toolSpans = <T extends { name: string }>(all: T[]) => all.filter((s) => s.name === 'execute_tool send_payment');

  it('start each call with its decision, run or blocked by approval, and end every one with its outcome', async () => {
    const { agent, suspension } = await twoPending();
    reset(); // the spans of the run that stopped
    await agent.resume(suspension, { approve: [decision(suspension, 0, true), decision(suspension, 1, false)] });
    const pick = (attributes: Record<string, unknown>, names: string[]) =>
      Object.fromEntries(names.filter((n) => n in attributes).map((n) => [n, attributes[n]]));
    const names = ['gen_ai.tool.call.id', 'legate.decision', 'legate.rule', 'legate.approved', 'legate.outcome'];
    // As a sampler or span processor sees them when each span starts.
    expect(toolSpans(started()).map((s) => pick(s.attributes, names))).toStrictEqual([
      { 'gen_ai.tool.call.id': 'toolu_s1_1', 'legate.decision': 'run', 'legate.approved': true },
      {
        'gen_ai.tool.call.id': 'toolu_s1_3',
        'legate.decision': 'blocked',
        'legate.rule': 'approval',
        'legate.approved': false,
      },
    ]);
    const ended = toolSpans([...spans()]).sort((a, b) =>
      String(a.attributes['gen_ai.tool.call.id']).localeCompare(String(b.attributes['gen_ai.tool.call.id'])),
    );
    expect(ended.map((s) => pick(s.attributes, names))).toStrictEqual([
      {
        'gen_ai.tool.call.id': 'toolu_s1_1',
        'legate.decision': 'run',
        'legate.approved': true,
        'legate.outcome': 'ok',
      },
      {
        'gen_ai.tool.call.id': 'toolu_s1_3',
        'legate.decision': 'blocked',
        'legate.rule': 'approval',
        'legate.approved': false,
        'legate.outcome': 'blocked',
      },
    ]);
  });

  it("end each call's span once: OpenTelemetry reports no misuse", async () => {
    const reported: string[] = [];
    const report = (message: string) => void reported.push(message);
    diag.setLogger(
      { error: report, warn: report, info: () => undefined, debug: () => undefined, verbose: () => undefined },
      DiagLogLevel.WARN,
    );
    try {
      const { agent, suspension } = await twoPending();
      reset(); // the spans of the run that stopped
      await agent.resume(suspension, { approve: [decision(suspension, 0, true), decision(suspension, 1, false)] });
      expect(toolSpans([...spans()])).toHaveLength(2);
    } finally {
      diag.disable();
    }
    expect(reported).toEqual([]);
  });
});
