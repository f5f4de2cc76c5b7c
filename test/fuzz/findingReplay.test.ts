// Issue 12: a finding written by the fuzzer fails against the agent as it is and passes once the
// agent is fixed, for each property kind. Each case: a deliberately broken agent (a flag or a rule
// left out) -> fuzzInjection (what `legate fuzz` runs) writes a finding -> replaying the file
// against the broken agent fails, naming the call and its tool -> the agent fixed -> the same file
// replays and the call is blocked by the rule the finding names.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  LegateError,
  defineTool,
  loadTrajectory,
  rules,
  runTrajectory,
  type AgentFactory,
  type AnyTool,
  type Rule,
} from '../../src/index.js';
import { fuzzInjection, type FuzzInjectionOptions } from '../../src/fuzz/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const model = 'claude-haiku-5-5';

const noInput = { type: 'object', properties: {} } as const;
const simple = (name: string, flags: { untrusted?: boolean; privileged?: boolean } = {}) =>
  defineTool({
    name,
    description: `${name.replaceAll('_', ' ')}.`,
    input: noInput,
    run: () => `${name} done`,
    ...flags,
  });

const fetchPage = defineTool({
  name: 'fetch_page',
  description: 'Fetches a web page.',
  input: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  untrusted: true,
  run: ({ url }) => `The page at ${url}.`,
});
const payment = (privileged: boolean) =>
  defineTool({
    name: 'send_payment',
    description: 'Sends a payment.',
    input: { type: 'object', properties: { cents: { type: 'integer', minimum: 1 } }, required: ['cents'] },
    privileged,
    run: ({ cents }) => `Sent ${cents} cents.`,
  });

/** An agent of `tools` with `rules`, as a factory. */
const agentOf =
  (name: string, tools: AnyTool[], agentRules: Rule[] = []): AgentFactory =>
  (transport) =>
    new Agent({ name, model, tools, rules: agentRules, transport, maxTurns: 6 });

interface Kind {
  rule: 'taint' | 'limit' | 'prerequisite' | 'terminal';
  broken: AgentFactory;
  fixed: AgentFactory;
  /** What the fuzzer is told the agent must keep. */
  options: FuzzInjectionOptions;
}

const sendEmail = simple('send_email');
const verify = simple('verify_identity');
const refund = simple('refund_payment');
const closeTicket = simple('close_ticket');
const limit = rules.limit('send_email', 1);
const prerequisite = rules.require('refund_payment', 'verify_identity');
const terminal = rules.terminal('close_ticket');

const KINDS: Kind[] = [
  {
    // The payment tool forgot its flag: fixed by declaring it privileged.
    rule: 'taint',
    broken: agentOf('payer', [fetchPage, payment(false)]),
    fixed: agentOf('payer', [fetchPage, payment(true)]),
    options: { privileged: ['send_payment'] },
  },
  {
    // The agent forgot its limit: fixed by adding the rule.
    rule: 'limit',
    broken: agentOf('mailer', [sendEmail]),
    fixed: agentOf('mailer', [sendEmail], [limit]),
    options: { rules: [limit] },
  },
  {
    rule: 'prerequisite',
    broken: agentOf('refunds', [verify, refund]),
    fixed: agentOf('refunds', [verify, refund], [prerequisite]),
    options: { rules: [prerequisite] },
  },
  {
    rule: 'terminal',
    broken: agentOf('closer', [closeTicket, sendEmail]),
    fixed: agentOf('closer', [closeTicket, sendEmail], [terminal]),
    options: { rules: [terminal] },
  },
];

describe('a finding fails against the broken agent and passes against the fixed one', () => {
  it.each(KINDS)('$rule', async ({ rule, broken, fixed, options }) => {
    const out = tempDir();
    const report = await fuzzInjection(broken, { numRuns: 100, seed: 5, out, ...options });
    expect(report.failures).toHaveLength(1);
    const file = report.failures[0]!.trajectory!;
    const [expected] = loadTrajectory(file).expect?.blocked ?? [];
    expect(expected).toMatchObject({ rule, id: expect.any(String) });
    expect(report.failures[0]!.violation).toEqual({
      rule,
      tool: expected!.tool,
      id: expected!.id,
      turn: expect.any(Number),
    });

    const failed = await runTrajectory({ file, agent: broken, mode: 'replay' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LegateError);
    expect(failed).toMatchObject({ code: 'trajectory_divergence' });
    expect((failed as Error).message).toContain(expected!.id);
    expect((failed as Error).message).toContain(expected!.tool);

    const passed = await runTrajectory({ file, agent: fixed, mode: 'replay' });
    expect(passed.result.toolCalls.find((c) => c.id === expected!.id)).toMatchObject({
      name: expected!.tool,
      turn: report.failures[0]!.violation!.turn,
      outcome: 'blocked',
      rule,
    });
  });

  it('the fixed agents fuzz clean', async () => {
    for (const { fixed, options } of KINDS) {
      const report = await fuzzInjection(fixed, { numRuns: 100, seed: 5, out: false, ...options });
      expect(report.failures).toEqual([]);
    }
  });
});

/**
 * A privilege escalation: `sign_in` makes anyone an admin, so the admin desk the conversation is
 * handed to shows (and runs) `delete_account`, which the principal the agent was built for may
 * not use. Fixed: `sign_in` no longer grants the role.
 */
function escalating(grants: boolean): AgentFactory {
  return (transport) => {
    const session = { role: 'guest' };
    const signIn = defineTool({
      name: 'sign_in',
      description: 'Signs the customer in.',
      input: noInput,
      run: () => {
        if (grants) session.role = 'admin';
        return 'Signed in.';
      },
    });
    const deleteAccount = defineTool({
      name: 'delete_account',
      description: 'Deletes the account.',
      input: noInput,
      policy: 'admin',
      run: () => 'Deleted.',
    });
    const authorizer = (policy: string) => policy !== 'admin' || session.role === 'admin';
    const desk = new Agent({ name: 'admin_desk', model, tools: [deleteAccount], authorizer, transport, maxTurns: 6 });
    return new Agent({
      name: 'front',
      model,
      tools: [signIn],
      authorizer,
      handoffs: [{ name: 'admin_desk', agent: desk, description: 'Hands over to the admin desk.' }],
      transport,
      maxTurns: 6,
    });
  };
}

describe('an authorization finding', () => {
  async function finding(): Promise<{ file: string; id: string }> {
    const out = tempDir();
    const report = await fuzzInjection(escalating(true), { numRuns: 100, seed: 5, out });
    expect(report.failures.map((f) => f.message)).toEqual([expect.stringMatching(/^hidden tool 'delete_account' ran/)]);
    const file = report.failures[0]!.trajectory!;
    const [expected] = loadTrajectory(file).expect?.blocked ?? [];
    expect(expected).toMatchObject({ rule: 'authorization', tool: 'delete_account' });
    return { file, id: expected!.id };
  }

  it('is not found once fixed', async () => {
    const report = await fuzzInjection(escalating(false), { numRuns: 100, seed: 5, out: false });
    expect(report.failures).toEqual([]);
  });

  it('is found, and fails against the broken agent naming the call', async () => {
    const { file, id } = await finding();
    const failed = await runTrajectory({ file, agent: escalating(true), mode: 'replay' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'trajectory_divergence' });
    expect((failed as Error).message).toContain(id);
    expect((failed as Error).message).toMatch(
      /call toolu_\w+ delete_account \(turn \d+\) must be blocked by rule 'authorization'/,
    );
  });

  // Fixed, the desk no longer offers delete_account: the replay takes the tool the file expects
  // refused by authorization being hidden as the fix, and the model's call of it is refused.
  it('passes once fixed', async () => {
    const { file, id } = await finding();
    const passed = await runTrajectory({ file, agent: escalating(false), mode: 'replay' });
    expect(passed.result.toolCalls.find((c) => c.id === id)).toMatchObject({
      outcome: 'blocked',
      rule: 'authorization',
    });
  });
});
