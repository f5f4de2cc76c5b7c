import { beforeAll, describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { createSupportDesk, createShadowSupportDesk } from '../../examples/support/agent.js';
import { runTrajectory, type AgentResult } from '../../src/index.js';

/** An expected string compared without regard to case: only a registered equality tester knows it. */
class IgnoringCase {
  constructor(readonly text: string) {}
}

function ignoringCase(a: unknown, b: unknown): boolean | undefined {
  if (!(b instanceof IgnoringCase)) return undefined;
  return typeof a === 'string' && a.toLowerCase() === b.text.toLowerCase();
}

// Registered for this file only; it answers for `IgnoringCase` values and leaves every other comparison alone.
expect.addEqualityTesters([ignoringCase]);

let emails: AgentResult;
let shadow: AgentResult;
beforeAll(async () => {
  emails = (await runTrajectory({ file: 'trajectories/email-limit.yaml', agent: createSupportDesk, mode: 'replay' }))
    .result;
  shadow = (
    await runTrajectory({ file: 'trajectories/shadow-refund.yaml', agent: createShadowSupportDesk, mode: 'replay' })
  ).result;
});

describe('legate matchers compare arguments with the equality testers registered on expect', () => {
  it('toHaveCalledTool uses them', () => {
    expect(emails).toHaveCalledTool('send_email', {
      subject: new IgnoringCase('DOCUMENT 2'),
      body: 'Attached: the invoice.',
    });
    expect(emails).not.toHaveCalledTool('send_email', {
      subject: new IgnoringCase('document 9'),
      body: 'Attached: the invoice.',
    });
  });

  it('toHavePlannedEffect uses them', () => {
    expect(shadow).toHavePlannedEffect('refund_payment', { orderId: new IgnoringCase('a-1002'), amount: 15 });
    expect(shadow).not.toHavePlannedEffect('refund_payment', { orderId: new IgnoringCase('a-1003'), amount: 15 });
  });

  it('toMatchTrajectory uses them, in exact inputs and at the leaves of subset and superset', () => {
    const document = (n: number) => ({ subject: new IgnoringCase(`DOCUMENT ${n}`) });
    const reference = [1, 2, 3].map((n) => ({ tool: 'send_email', input: document(n) }));
    expect(emails).toMatchTrajectory(reference, { args: 'superset' });
    expect(emails).not.toMatchTrajectory(reference, { args: 'exact' }); // the body is missing
    const whole = [1, 2, 3].map((n) => ({ tool: 'send_email', input: { ...document(n), body: expect.any(String) } }));
    expect(emails).toMatchTrajectory(whole, { order: 'unordered' });
    expect(emails).toMatchTrajectory(whole, { order: 'unordered', args: 'subset' });
    expect(emails).not.toMatchTrajectory([{ tool: 'send_email', input: document(9) }], {
      order: 'superset',
      args: 'superset',
    });
  });
});
