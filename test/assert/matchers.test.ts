import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { createAssistant } from '../../examples/payments/agent.js';
import { createShadowSupportDesk, createSupportDesk } from '../../examples/support/agent.js';
import { createTriage } from '../../examples/desk/agent.js';
import { createTreasurer } from '../../examples/treasury/agent.js';
import { createCalculator } from '../../examples/calculator/agent.js';
import {
  loadTrajectory,
  runTrajectory,
  type AgentFactory,
  type AgentResult,
  type Trajectory,
} from '../../src/index.js';
import { failureMessage as failure } from '../support/caught.js';

/** Each corpus run, both as a live (replayed) AgentResult and as the trajectory loaded from YAML. */
const runs: Record<string, { factory: AgentFactory; result?: AgentResult; trajectory?: Trajectory }> = {
  'zero-trust': { factory: createAssistant },
  'terminal-close-ticket': { factory: createSupportDesk },
  'email-limit': { factory: createSupportDesk },
  'shadow-refund': { factory: createShadowSupportDesk },
  'taint-crosses-handoff': { factory: createTriage },
  'handoff-to-billing': { factory: createTriage },
  'invalid-argument-corrected': { factory: createCalculator },
  'tool-failure': { factory: createCalculator },
  'max-tokens': { factory: createCalculator },
  'approval-denied': { factory: createTreasurer },
};

beforeAll(async () => {
  for (const [name, run] of Object.entries(runs)) {
    const file = `trajectories/${name}.yaml`;
    run.result = (await runTrajectory({ file, agent: run.factory, mode: 'replay' })).result;
    run.trajectory = loadTrajectory(file);
  }
});

/**
 * Both subjects of a run, so every assertion is made on a live result and on its file (read once the runs are loaded).
 */
function both(name: string): [string, () => AgentResult | Trajectory][] {
  return [
    [`${name} (AgentResult)`, () => runs[name]!.result!],
    [`${name} (trajectory)`, () => runs[name]!.trajectory!],
  ];
}

describe('legate/vitest matchers, on a live result and on its trajectory alike', () => {
  it.each(both('zero-trust'))('toBeTainted and toHaveBlocked: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).toBeTainted();
    expect(subject).toBeTainted({ source: 'fetch_page' });
    expect(subject).not.toBeTainted({ source: 'another_tool' });
    expect(subject).toHaveBlocked('send_payment', { rule: 'taint', source: 'fetch_page' });
    expect(subject).not.toHaveBlocked('fetch_page');
    expect(subject).toHaveBlocked();
    const message = failure(() => expect(subject).toHaveBlocked('send_payment', { rule: 'limit' }));
    expect(message).toContain(`expected the run to have blocked 'send_payment' by rule 'limit', but it did not.`);
    expect(message).toContain('fetch_page    ok');
    expect(message).toContain('send_payment  blocked (taint, source fetch_page)');
    expect(failure(() => expect(subject).not.toBeTainted())).toContain(
      `expected the run not to be tainted, but it was tainted by 'fetch_page'.`,
    );
  });

  it.each(both('terminal-close-ticket'))('toBeTerminal and toHaveStopped: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).toBeTerminal();
    expect(subject).toHaveStopped('terminal');
    expect(subject).not.toHaveStopped('end_turn');
    expect(subject).toBeComplete();
    expect(failure(() => expect(subject).toHaveStopped('refusal'))).toContain(
      'expected the run to have stopped with refusal, but it stopped with terminal.',
    );
  });

  it.each(both('max-tokens'))('toBeComplete fails on a cut-off answer: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).not.toBeComplete();
    expect(subject).not.toBeTerminal();
    expect(failure(() => expect(subject).toBeComplete())).toContain('but it stopped with max_tokens.');
  });

  it.each(both('handoff-to-billing'))('toHaveHandedOffTo: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).toHaveHandedOffTo('billing');
    expect(subject).toHaveHandedOffTo(['billing']);
    expect(subject).not.toHaveHandedOffTo('triage');
    expect(failure(() => expect(subject).toHaveHandedOffTo(['billing', 'legal']))).toContain(
      'expected the run to have handed off along billing → legal, but it handed off along billing.',
    );
  });

  it.each(both('handoff-to-billing'))(
    "toHaveHandedOffTo's chain leaves out the agent that started the run, and says so: %s",
    (_name, subjectOf) => {
      const subject = subjectOf();
      expect(subject).not.toHaveHandedOffTo(['triage', 'billing']);
      expect(failure(() => expect(subject).toHaveHandedOffTo(['triage', 'billing']))).toContain(
        'but it handed off along billing ' +
          "(the chain lists the agents handed to: it leaves out 'triage', which started the run).",
      );
      expect(failure(() => expect(subject).toHaveHandedOffTo('triage'))).toContain(
        "but it ended with 'billing' ('triage' started the run: it was not handed to).",
      );
    },
  );

  it.each(both('zero-trust'))('toHaveHandedOffTo on a run without handoffs: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).toHaveHandedOffTo([]);
    expect(failure(() => expect(subject).toHaveHandedOffTo('assistant'))).toContain(
      "but it made no handoff ('assistant' started the run: it was not handed to).",
    );
  });

  it.each(both('email-limit'))(
    'toHaveCalledTool, toHaveCalledToolTimes and toHaveToolSequence: %s',
    (_name, subjectOf) => {
      const subject = subjectOf();
      expect(subject).toHaveCalledTool('send_email');
      expect(subject).toHaveCalledTool('send_email', { subject: 'Document 2', body: 'Attached: the invoice.' });
      expect(subject).toHaveCalledTool(
        'send_email',
        expect.objectContaining({ subject: expect.stringMatching(/^Document/) }),
      );
      expect(subject).not.toHaveCalledTool('close_ticket');
      expect(subject).toHaveCalledToolTimes('send_email', 3);
      expect(subject).toHaveToolSequence(['send_email', 'send_email', 'send_email']);
      expect(subject).toHaveToolSequence(['send_email'], { mode: 'atLeast' });
      expect(subject).toHaveToolSequence(['send_email', 'close_ticket'], { mode: 'atMost' });
      expect(subject).not.toHaveToolSequence(['send_email'], { mode: 'exact' });
      expect(failure(() => expect(subject).toHaveCalledTool('send_email', { subject: 'Document 9' }))).toContain(
        `expected the run to have called 'send_email' with {"subject":"Document 9"}`,
      );
      expect(failure(() => expect(subject).toHaveCalledToolTimes('send_email', 2))).toContain(
        'but it called it 3 times.',
      );
    },
  );

  it.each(both('taint-crosses-handoff'))('toHaveToolSequence modes: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    // read_attachment, handoff_to_billing, issue_refund
    expect(subject).toHaveToolSequence(['read_attachment', 'issue_refund'], { mode: 'inOrder' });
    expect(subject).not.toHaveToolSequence(['issue_refund', 'read_attachment'], { mode: 'inOrder' });
    expect(subject).toHaveToolSequence(['issue_refund', 'handoff_to_billing', 'read_attachment'], { mode: 'anyOrder' });
    expect(subject).not.toHaveToolSequence(['issue_refund', 'read_attachment'], { mode: 'anyOrder' });
    expect(failure(() => expect(subject).toHaveToolSequence(['read_attachment'], { mode: 'exact' }))).toContain(
      'expected the run to have called exactly [read_attachment], but it called [read_attachment, ' +
        'handoff_to_billing, issue_refund].',
    );
  });

  it.each(both('shadow-refund'))('toHavePlannedEffect: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).toHavePlannedEffect('refund_payment');
    expect(subject).toHavePlannedEffect('refund_payment', { orderId: 'A-1002', amount: 15 });
    expect(subject).not.toHavePlannedEffect('send_email');
    expect(
      failure(() => expect(subject).toHavePlannedEffect('refund_payment', { orderId: 'Z-0000', amount: 15 })),
    ).toContain('but its input differed');
  });

  it.each(both('invalid-argument-corrected'))(
    'toHaveInvalidArgument and toHaveNoToolFailures: %s',
    (_name, subjectOf) => {
      const subject = subjectOf();
      expect(subject).toHaveInvalidArgument('add', { argument: 'left', code: 'invalid_type' });
      expect(subject).not.toHaveInvalidArgument('add', { argument: 'right' });
      expect(subject).toHaveNoToolFailures();
      expect(failure(() => expect(subject).toHaveInvalidArgument('divide'))).toContain(
        `expected the run to have refused an invalid for 'divide', but the binder refused no such call.`,
      );
    },
  );

  it.each(both('tool-failure'))('toHaveNoToolFailures fails when a tool threw: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).not.toHaveNoToolFailures();
    expect(failure(() => expect(subject).toHaveNoToolFailures())).toContain(`but 'square_root' failed.`);
  });

  it.each(both('approval-denied'))('toBeSuspended and toHaveUsageBelow: %s', (_name, subjectOf) => {
    const subject = subjectOf();
    expect(subject).not.toBeSuspended();
    expect(subject).toHaveBlocked('wire_money', { rule: 'approval' });
    expect(subject).toHaveUsageBelow({ inputTokens: 10_000, outputTokens: 1_000 });
    expect(subject).not.toHaveUsageBelow({ inputTokens: 10 });
    expect(failure(() => expect(subject).toHaveUsageBelow({ outputTokens: 5 }))).toMatch(
      /expected the run to have used outputTokens below 5, but it used \d+ outputTokens\./,
    );
  });

  it('toBeSuspended passes on a run waiting for approval', async () => {
    const { ScriptedTransport, reply } = await import('../../src/index.js');
    const result = await createTreasurer(
      new ScriptedTransport([reply.toolUse('wire_money', { supplier: 'X', amount: 1 })]),
    ).run('pay');
    expect(result).toBeSuspended();
    expect(result).toHaveStopped('suspended');
    expect(failure(() => expect(result).not.toBeSuspended())).toContain(`but it waits for approval of 'wire_money'.`);
  });

  it('toHaveHandedOffTo over the corpus: the chain is the agents handed to, not the starting agent', () => {
    const files = readdirSync('trajectories').filter((file) => file.endsWith('.yaml'));
    fc.assert(
      fc.property(fc.constantFrom(...files), (file) => {
        const trajectory = loadTrajectory(`trajectories/${file}`);
        const handedTo = trajectory.summary.handoffs?.map((handoff) => handoff.to) ?? [];
        expect(trajectory).toHaveHandedOffTo(handedTo);
        if (handedTo[0] === trajectory.agent) return;
        expect(trajectory).not.toHaveHandedOffTo([trajectory.agent, ...handedTo]);
        expect(failure(() => expect(trajectory).toHaveHandedOffTo([trajectory.agent, ...handedTo]))).toContain(
          `it leaves out '${trajectory.agent}', which started the run`,
        );
      }),
      { numRuns: files.length * 2 },
    );
  });

  it('says what it was given when it is not a run', () => {
    expect(() => expect({ text: 'hi' }).toBeTainted()).toThrow(
      'legate assertions take an AgentResult (from agent.run) or a Trajectory (from loadTrajectory)',
    );
  });
});
