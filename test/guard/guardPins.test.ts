// Behaviours of the guard that the code gets right and that mutation testing showed no test
// pinned down: each test here fails if the rule it names is weakened.
import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ScriptedTransport,
  defineTool,
  policies,
  reply,
  rules,
  type AgentOptions,
  type Rule,
  type ScriptStep,
} from '../../src/index.js';
import { applyOutcomes, type CallOutcome } from '../../src/guard/applyOutcomes.js';
import { isAuthorized } from '../../src/guard/authorizer.js';
import { checkRules, RuleConfigurationError } from '../../src/guard/checkRules.js';
import { compileRules, type ToolFacts } from '../../src/guard/guardContext.js';
import { initialGuardState, type GuardState } from '../../src/guard/guardState.js';
import { decideBatch, decideCalls } from '../../src/guard/pipeline.js';
import { isPlannedInstead } from '../../src/guard/shadow.js';
import { caught } from '../support/caught.js';

const model = 'claude-haiku-5-5';
const noInput = { type: 'object', properties: {} } as const;

function spyTool(
  name: string,
  options: { untrusted?: boolean; privileged?: boolean; policy?: string; fails?: boolean } = {},
) {
  const run = vi.fn(() => {
    if (options.fails) throw new Error(`${name} failed`);
    return `${name} done`;
  });
  const { fails: _fails, ...flags } = options;
  return { tool: defineTool({ name, description: `${name}.`, input: noInput, run, ...flags }), run };
}

async function runAgent(options: Partial<AgentOptions> & { tools: AgentOptions['tools'] }, script: ScriptStep[]) {
  const transport = new ScriptedTransport([...script, reply.text('Done.')]);
  return new Agent({ name: 'guarded', model, transport, ...options }).run('go');
}

function facts(entries: Record<string, Partial<ToolFacts>>): Map<string, ToolFacts> {
  return new Map(
    Object.entries(entries).map(([name, f]) => [
      name,
      { untrusted: false, privileged: false, policy: undefined, ...f },
    ]),
  );
}

/** The rule of each call's decision, `ok` for an allowed call. */
function decide(
  names: string[],
  options: {
    rules?: Rule[];
    tools?: Record<string, Partial<ToolFacts>>;
    state?: Partial<GuardState>;
    visible?: string[];
  } = {},
) {
  const tools = facts(options.tools ?? Object.fromEntries(names.map((n) => [n, {}])));
  const decisions = decideBatch(
    names.map((name, i) => ({ id: `c${i}`, name })),
    {
      state: { ...initialGuardState(), ...options.state },
      rules: compileRules(options.rules ?? []),
      tools,
      visible: options.visible ?? [...tools.keys()],
    },
  );
  return decisions.map((d) => d?.rule ?? 'ok');
}

describe('rules checked when the agent is built', () => {
  const build = (tools: string[], list: () => Rule[]) => () =>
    new Agent({
      name: 'a',
      model,
      transport: new ScriptedTransport([]),
      tools: tools.map((n) => spyTool(n).tool),
      rules: list(),
    });

  it.each([
    ['limit', () => [rules.limit('send_emial', 1)]],
    ['terminal', () => [rules.terminal('close_tikcet')]],
    ['require (the guarded tool)', () => [rules.require('refund_paymnet', 'send_email')]],
  ])('refuses a %s rule naming a misspelt tool, naming it', (_kind, list) => {
    const error = caught(build(['send_email', 'close_ticket'], list), RuleConfigurationError);
    expect(error.name).toBe('RuleConfigurationError');
    expect(error.code).toBe('invalid_rule');
    expect(error.tool).toMatch(/^(send_emial|close_tikcet|refund_paymnet)$/);
    expect(error.message).toContain(`'${error.tool}'`);
    expect(error.message).toContain("'send_email', 'close_ticket'");
  });

  it('names no tools when the agent has none', () => {
    const error = caught(
      build([], () => [rules.terminal('x')]),
      RuleConfigurationError,
    );
    expect(error.message).toContain('Its tools are none.');
  });

  it('refuses a limit of 0 or less: a tool that may never run is a misconfiguration', () => {
    for (const max of [0, -1]) {
      const error = caught(
        build(['send_email'], () => [rules.limit('send_email', max)]),
        RuleConfigurationError,
      );
      expect(error.tool).toBe('send_email');
    }
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'refuses a limit of %s: a limit is a whole number of calls',
    (max) => {
      expect(build(['send_email'], () => [rules.limit('send_email', max)])).toThrow();
    },
  );

  it('refuses a function carrying the fields of a rule: a rule is plain data, as rules.* make it', () => {
    const disguised = Object.assign(() => undefined, rules.terminal('send_email'));
    const error = caught(
      build(['send_email'], () => [disguised]),
      AgentConfigurationError,
    );
    expect(error.option).toBe('rules[0]');
    expect(error.message).toMatch(/^Agent 'a': rules\[0\] must be a rule made with rules\.require/);
  });

  it('accepts a limit of 1, and rules naming tools the agent has', () => {
    expect(
      build(['send_email', 'close_ticket'], () => [
        rules.limit('send_email', 1),
        rules.terminal('close_ticket'),
        rules.require('send_email', 'close_ticket'),
      ]),
    ).not.toThrow();
    expect(() => checkRules('a', [rules.limit('t', 1)], ['t'])).not.toThrow();
  });
});

describe('limits', () => {
  it('a limit of 1 lets exactly one call through, and the next is blocked', () => {
    expect(decide(['t', 't'], { rules: [rules.limit('t', 1)] })).toEqual(['ok', 'limit']);
    expect(decide(['t'], { rules: [rules.limit('t', 1)], state: { attempts: { t: 1 } } })).toEqual(['limit']);
    expect(decide(['t'], { rules: [rules.limit('t', 2)], state: { attempts: { t: 1 } } })).toEqual(['ok']);
  });

  it('counts attempts of earlier turns and of the same response together', () => {
    expect(decide(['t', 't', 't'], { rules: [rules.limit('t', 3)], state: { attempts: { t: 1 } } })).toEqual([
      'ok',
      'ok',
      'limit',
    ]);
  });

  it('counts each tool on its own', () => {
    expect(decide(['t', 'u', 't', 'u'], { rules: [rules.limit('t', 1), rules.limit('u', 2)] })).toEqual([
      'ok',
      'ok',
      'limit',
      'ok',
    ]);
  });

  it('of two limits on one tool, the smaller applies', () => {
    expect(decide(['t', 't', 't'], { rules: [rules.limit('t', 2), rules.limit('t', 1)] })).toEqual([
      'ok',
      'limit',
      'limit',
    ]);
    expect(decide(['t', 't', 't'], { rules: [rules.limit('t', 1), rules.limit('t', 2)] })).toEqual([
      'ok',
      'limit',
      'limit',
    ]);
  });

  it('a blocked call is not an attempt: it does not use up the limit, in the same response or later', async () => {
    // Blocked by its prerequisite first, the refund still has its one call once verified.
    const verify = spyTool('verify_identity');
    const refund = spyTool('refund_payment');
    const result = await runAgent(
      {
        tools: [verify.tool, refund.tool],
        rules: [rules.require('refund_payment', 'verify_identity'), rules.limit('refund_payment', 1)],
      },
      [
        reply.toolUses([
          { name: 'refund_payment', input: {} },
          { name: 'refund_payment', input: {} },
          { name: 'verify_identity', input: {} },
        ]),
        reply.toolUse('refund_payment', {}),
        reply.toolUse('refund_payment', {}),
      ],
    );
    expect(result.toolCalls.map((c) => `${c.name}:${c.outcome}`)).toEqual([
      'refund_payment:blocked',
      'refund_payment:blocked',
      'verify_identity:ok',
      'refund_payment:ok',
      'refund_payment:blocked',
    ]);
    expect(result.blocked.map((b) => b.rule)).toEqual(['prerequisite', 'prerequisite', 'limit']);
    expect(result.guard.attempts).toEqual({ verify_identity: 1, refund_payment: 1 });
    expect(refund.run).toHaveBeenCalledTimes(1);
  });

  it('a call blocked in a response leaves the limit to the calls after it', () => {
    expect(
      decide(['p', 't', 't'], {
        rules: [rules.limit('t', 1), rules.terminal('p')],
        tools: { p: {}, t: {} },
        state: { terminatedBy: null },
      }),
    ).toEqual(['ok', 'terminal', 'terminal']);
    const tainted = { taint: { source: 'web', id: 'w' } };
    expect(
      decide(['t', 'u'], { rules: [rules.limit('u', 1)], tools: { t: { privileged: true }, u: {} }, state: tainted }),
    ).toEqual(['taint', 'ok']);
  });

  it('a call of a name the tools do not include is no attempt: it leaves the limit to the calls after it', () => {
    // As applyOutcomes counts (isAttempt): a call that reached no tool can have had no effect.
    expect(decide(['t', 't'], { rules: [rules.limit('t', 1)], tools: {}, visible: ['t'] })).toEqual(['ok', 'ok']);
    expect(decide(['t', 'u'], { rules: [rules.limit('t', 1)], tools: { u: {} }, visible: ['t', 'u'] })).toEqual([
      'ok',
      'ok',
    ]);
  });

  it('a call the guard let through counts even when the tool failed', async () => {
    const flaky = spyTool('flaky', { fails: true });
    const result = await runAgent({ tools: [flaky.tool], rules: [rules.limit('flaky', 1)] }, [
      reply.toolUse('flaky', {}),
      reply.toolUse('flaky', {}),
    ]);
    expect(result.toolCalls.map((c) => c.outcome)).toEqual(['error', 'blocked']);
    expect(flaky.run).toHaveBeenCalledTimes(1);
  });

  it('states the limit in the refusal, singular for one call', () => {
    const context = { state: initialGuardState(), tools: facts({ t: {} }), visible: ['t'] };
    const one = decideBatch(
      [
        { id: 'a', name: 't' },
        { id: 'b', name: 't' },
      ],
      { ...context, rules: compileRules([rules.limit('t', 1)]) },
    );
    expect(one[1]).toEqual({
      rule: 'limit',
      message: "Tool 't' was blocked: it may be called at most 1 time in a run, and that limit is reached.",
    });
  });
});

describe('taint', () => {
  it('keeps the first untrusted source: a later untrusted tool does not overwrite it', async () => {
    const page = spyTool('fetch_page', { untrusted: true });
    const mail = spyTool('read_email', { untrusted: true });
    const pay = spyTool('send_payment', { privileged: true });
    const result = await runAgent({ tools: [page.tool, mail.tool, pay.tool] }, [
      reply.toolUse('fetch_page', {}),
      reply.toolUse('read_email', {}),
      reply.toolUse('send_payment', {}),
    ]);
    expect(result.taintSource).toBe('fetch_page');
    expect(result.guard.taint).toEqual({ source: 'fetch_page', id: 'toolu_s1_1' });
    expect(result.blocked).toMatchObject([{ tool: 'send_payment', rule: 'taint', source: 'fetch_page' }]);
    expect(pay.run).not.toHaveBeenCalled();
  });

  it('keeps the first of two untrusted successes in one response', () => {
    const tools = facts({ a: { untrusted: true }, b: { untrusted: true } });
    const outcomes: CallOutcome[] = [
      { id: '1', name: 'a', allowed: true, succeeded: true },
      { id: '2', name: 'b', allowed: true, succeeded: true },
    ];
    expect(applyOutcomes(initialGuardState(), outcomes, 1, tools, compileRules([])).taint).toEqual({
      source: 'a',
      id: '1',
    });
  });

  it('decideBatch refuses a call that decideCalls holds for a person, with the refusal it holds', () => {
    const context = {
      state: { ...initialGuardState(), taint: { source: 'web', id: 'w' } },
      rules: compileRules([]),
      tools: facts({ pay: { privileged: true, onTaint: 'approve' }, note: {} }),
      visible: ['pay', 'note'],
    };
    const calls = [
      { id: '1', name: 'pay' },
      { id: '2', name: 'note' },
    ];
    const [held, allowed] = decideCalls(calls, context);
    expect(held).toMatchObject({ held: 'taint', block: { rule: 'taint', source: 'web' } });
    expect(allowed).toBeUndefined();
    expect(decideBatch(calls, context)).toStrictEqual([(held as { block: unknown }).block, undefined]);
  });

  it('blocks only privileged tools, and only once tainted', () => {
    const tools = { web: { untrusted: true }, pay: { privileged: true }, note: {} };
    expect(decide(['pay', 'note'], { tools })).toEqual(['ok', 'ok']);
    expect(decide(['pay', 'note', 'web'], { tools, state: { taint: { source: 'web', id: 'x' } } })).toEqual([
      'taint',
      'ok',
      'ok',
    ]);
  });
});

describe('the guard state after a response', () => {
  const tools = facts({ a: {}, b: { untrusted: true }, end: {}, end2: {} });
  const compiled = compileRules([rules.terminal('end'), rules.terminal('end2')]);

  it('counts allowed calls, remembers the first success turn, and ignores what was blocked or failed', () => {
    const state: GuardState = { ...initialGuardState(), successes: { a: 1 }, attempts: { a: 1 } };
    const next = applyOutcomes(
      state,
      [
        { id: '1', name: 'a', allowed: true, succeeded: true },
        { id: '2', name: 'a', allowed: false, succeeded: false },
        { id: '3', name: 'b', allowed: true, succeeded: false },
        { id: '4', name: 'end', allowed: false, succeeded: false },
      ],
      3,
      tools,
      compiled,
    );
    expect(next).toEqual({
      taint: null,
      taintSources: [],
      successes: { a: 1 },
      attempts: { a: 2, b: 1 },
      terminatedBy: null,
    });
    expect(state).toEqual({ ...initialGuardState(), successes: { a: 1 }, attempts: { a: 1 } }); // pure
  });

  it('records a first success with its turn, and keeps the first terminal success', () => {
    const next = applyOutcomes(
      initialGuardState(),
      [
        { id: '1', name: 'end', allowed: true, succeeded: true },
        { id: '2', name: 'end2', allowed: true, succeeded: true },
      ],
      4,
      tools,
      compiled,
    );
    expect(next.successes).toEqual({ end: 4, end2: 4 });
    expect(next.terminatedBy).toEqual({ tool: 'end', id: '1' });
    const later = applyOutcomes(next, [{ id: '3', name: 'end2', allowed: true, succeeded: true }], 5, tools, compiled);
    expect(later.terminatedBy).toEqual({ tool: 'end', id: '1' });
    expect(later.successes).toEqual({ end: 4, end2: 4 });
  });

  it('takes a success of a tool it has no facts on (not one of the agent tools) as trusted', () => {
    const next = applyOutcomes(
      initialGuardState(),
      [{ id: '1', name: 'transfer_to_billing', allowed: true, succeeded: true }],
      1,
      tools,
      compiled,
    );
    expect(next).toEqual({
      taint: null,
      taintSources: [],
      successes: { transfer_to_billing: 1 },
      attempts: {}, // an attempt is a call of a tool the agent in charge has (isAttempt)
      terminatedBy: null,
    });
  });

  it('keeps a taint it already had', () => {
    const state: GuardState = { ...initialGuardState(), taint: { source: 'old', id: '0' } };
    expect(
      applyOutcomes(state, [{ id: '1', name: 'b', allowed: true, succeeded: true }], 2, tools, compiled).taint,
    ).toEqual({ source: 'old', id: '0' });
  });
});

describe('terminal', () => {
  it('holds back everything after the first terminal call of a response, naming that call', () => {
    const context = {
      state: initialGuardState(),
      tools: facts({ end: {}, end2: {}, a: {} }),
      visible: ['end', 'end2', 'a'],
    };
    const decisions = decideBatch(
      [
        { id: '1', name: 'a' },
        { id: '2', name: 'end' },
        { id: '3', name: 'end2' },
        { id: '4', name: 'a' },
      ],
      { ...context, rules: compileRules([rules.terminal('end'), rules.terminal('end2')]) },
    );
    expect(decisions.map((d) => d?.rule)).toEqual([undefined, undefined, 'terminal', 'terminal']);
    expect(decisions[3]!.message).toContain("'end', called before it");
  });

  it('a terminal call blocked by another rule does not hold back the calls after it', () => {
    expect(
      decide(['end', 'a'], {
        rules: [rules.terminal('end'), rules.limit('end', 1)],
        tools: { end: {}, a: {} },
        state: { attempts: { end: 1 } },
      }),
    ).toEqual(['limit', 'ok']);
  });

  it('after a terminal success, every call is refused, naming the tool that ended the run', () => {
    const state = { terminatedBy: { tool: 'end', id: '1' } };
    const decisions = decideBatch([{ id: '2', name: 'a' }], {
      state: { ...initialGuardState(), ...state },
      rules: compileRules([]),
      tools: facts({ a: {} }),
      visible: ['a'],
    });
    expect(decisions[0]).toMatchObject({ rule: 'terminal' });
    expect(decisions[0]!.message).toContain("'end' has ended this run");
  });
});

describe('prerequisites', () => {
  it('needs every prerequisite of a tool, and names the first missing one', () => {
    const list = [rules.require('t', 'p1'), rules.require('t', 'p2')];
    const tools = { t: {}, p1: {}, p2: {} };
    expect(decide(['t'], { rules: list, tools, state: { successes: { p1: 1 } } })).toEqual(['prerequisite']);
    expect(decide(['t'], { rules: list, tools, state: { successes: { p2: 1 } } })).toEqual(['prerequisite']);
    expect(decide(['t'], { rules: list, tools, state: { successes: { p1: 1, p2: 2 } } })).toEqual(['ok']);
    const [block] = decideBatch([{ id: '1', name: 't' }], {
      state: { ...initialGuardState(), successes: { p1: 1 } },
      rules: compileRules(list),
      tools: facts(tools),
      visible: ['t'],
    });
    expect(block!.message).toContain("after 'p2' has succeeded");
  });

  it('counts a success in turn 0 as a success', () => {
    expect(
      decide(['t'], { rules: [rules.require('t', 'p')], tools: { t: {}, p: {} }, state: { successes: { p: 0 } } }),
    ).toEqual(['ok']);
  });
});

describe('authorization', () => {
  it('hides a gated tool the principal was not shown; a tool it does not have is not its concern', () => {
    expect(decide(['gated', 'open'], { tools: { gated: { policy: 'x' }, open: {} }, visible: ['open'] })).toEqual([
      'authorization',
      'ok',
    ]);
    expect(decide(['nonexistent'], { tools: {}, visible: [] })).toEqual(['ok']);
  });

  it('grants only an authorizer that answers exactly true, and fails closed', () => {
    expect(isAuthorized(undefined, undefined)).toBe(true);
    expect(isAuthorized('p', undefined)).toBe(false);
    expect(isAuthorized('p', () => true)).toBe(true);
    expect(isAuthorized('p', () => false)).toBe(false);
    expect(isAuthorized('p', (() => 1) as never)).toBe(false);
    expect(isAuthorized('p', (() => 'yes') as never)).toBe(false);
    expect(
      isAuthorized('p', () => {
        throw new Error('directory down');
      }),
    ).toBe(false);
    expect(isAuthorized('p', policies('p', 'q'))).toBe(true);
    expect(isAuthorized('r', policies('p', 'q'))).toBe(false);
  });
});

describe('shadow mode', () => {
  it('plans only privileged calls, and only in shadow mode', () => {
    expect(isPlannedInstead('shadow', true)).toBe(true);
    expect(isPlannedInstead('shadow', false)).toBe(false);
    expect(isPlannedInstead('live', true)).toBe(false);
  });
});
