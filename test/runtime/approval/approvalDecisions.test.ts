import { diag, DiagLogLevel } from '@opentelemetry/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ScriptedTransport,
  SuspensionError,
  reply,
  type AgentEvent,
  type ApprovalDecision,
  type Suspension,
  type ToolResultBlock,
  type UserMessage,
} from '../../../src/index.js';
import { checkResume } from '../../../src/runtime/approval/checkSuspension.js';
import { inputDigest } from '../../../src/runtime/approval/pendingCall.js';
import { paymentTool } from '../../support/paymentTool.js';
import { useSpanRecorder } from '../../support/spanRecorder.js';
import { decision, useTwoPendingPayments } from '../../support/twoPendingPayments.js';

const model = 'claude-haiku-5-5';
const KEY = 'k'.repeat(32);
const { paid, twoPending } = useTwoPendingPayments();
const { pay } = paymentTool(paid);

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('decisions are booleans, and only for pending calls', () => {
  it.each([['false'], ['no'], [1], [0], [null], [{}]])(
    'refuses a per-call approve of %j before anything runs',
    async (approve) => {
      const { agent, suspension } = await twoPending();
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
      const { agent, suspension } = await twoPending();
      const error = await caught(agent.resume(suspension, { approve } as never));
      expect(error).toBeInstanceOf(SuspensionError);
      expect(error).toMatchObject({ code: 'invalid_decision' });
      expect(paid).not.toHaveBeenCalled();
    },
  );

  it('refuses a decision for a call that is not pending, and two decisions for one call', async () => {
    const { agent, suspension } = await twoPending();
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
    expect(result.events.filter((e) => e.type === 'resumed')).toEqual(events.filter((e) => e.type === 'resumed'));
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
    const { agent, suspension } = await twoPending();
    await fc.assert(
      // (An empty list is a list of decisions that decides nothing: `undecided`, as resumeRefusals.test.ts checks.)
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
