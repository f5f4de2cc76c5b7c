import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issueRefund, lookupInvoice, readAttachment } from '../../examples/desk/agent.js';
import { useTempDir } from '../support/tempDir.js';
import { fetchPage, sendPayment } from '../../examples/payments/agent.js';
import { fetchArticle, publishPost } from '../../examples/research/agent.js';
import {
  Agent,
  ReplayTransport,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentFactory,
  type AnyTool,
  type JsonObjectSchema,
  type MatchLevel,
  type Transport,
} from '../../src/index.js';

/** A copy of a defined tool, declared again with some of its facts changed. */
function redeclared(tool: AnyTool, changes: Record<string, unknown>): AnyTool {
  return defineTool({
    name: tool.name,
    description: tool.description,
    input: tool.inputSchema as JsonObjectSchema,
    untrusted: tool.untrusted,
    privileged: tool.privileged,
    ...(tool.annotated ? { annotations: tool.annotations } : {}),
    run: (args, context) => tool.run(args, context),
    ...changes,
  });
}

/** The corpus's triage and billing desk (examples/desk), with the tools given. */
function desk(triageTools: AnyTool[], billingTools: AnyTool[]): AgentFactory {
  return (transport: Transport) =>
    new Agent({
      name: 'triage',
      model: 'claude-haiku-5-5',
      system: 'You route customers to the right team. Read attachments when there are any.',
      tools: triageTools,
      handoffs: [
        {
          name: 'billing',
          description: 'Charges, invoices and refunds.',
          agent: new Agent({
            name: 'billing',
            model: 'claude-haiku-5-5',
            system: 'You are the billing team. Check invoices before refunding, and refund what was paid.',
            tools: billingTools,
            transport,
            maxTurns: 6,
          }),
        },
      ],
      transport,
      maxTurns: 4,
    });
}

/** The corpus's planner and its researcher sub-agent (examples/research), the researcher with the tool given. */
function planner(researcherTool: AnyTool): AgentFactory {
  return (transport: Transport) => {
    const researcher = new Agent({
      name: 'researcher',
      model: 'claude-haiku-5-5',
      system: 'You research questions on the web and report what you found.',
      tools: [researcherTool],
      transport,
    });
    return new Agent({
      name: 'planner',
      model: 'claude-haiku-5-5',
      system: 'You plan blog posts. Ask the researcher for facts.',
      tools: [researcher.asTool('ask_researcher', 'Asks the researcher to find facts on the web.'), publishPost],
      transport,
      maxTurns: 5,
    });
  };
}

async function divergence(file: string, agent: AgentFactory): Promise<TrajectoryDivergenceError> {
  const error = await runTrajectory({ file, agent, mode: 'replay' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TrajectoryDivergenceError);
  return error as TrajectoryDivergenceError;
}

describe('posture compared for the agent in charge of each turn', () => {
  const file = 'trajectories/handoff-to-billing.yaml';

  it('replays the corpus file unchanged with the same tools', async () => {
    const run = await runTrajectory({
      file,
      agent: desk([readAttachment], [lookupInvoice, issueRefund]),
      mode: 'replay',
    });
    expect(run.mode).toBe('replay');
  });

  it("compares a handoff target's tools with its own entry in the header", async () => {
    const refund = redeclared(issueRefund, { privileged: false });
    const error = await divergence(file, desk([readAttachment], [lookupInvoice, refund]));
    expect(error.kind).toBe('tool_changed');
    expect(error.message).toContain("tool 'issue_refund' was privileged when recorded and is not privileged now");
    expect(error.turn).toBe(2); // billing's first turn
  });

  it('names the agent when the tools of more than one changed', async () => {
    const read = redeclared(readAttachment, { untrusted: false });
    const refund = redeclared(issueRefund, { privileged: false });
    const transport = new ReplayTransport(loadTrajectory(file), { file });
    await desk([read], [lookupInvoice, refund])(transport).run(loadTrajectory(file).input as string);
    expect(transport.toolChanges.map(({ agent, tool, field }) => [agent, tool, field])).toEqual([
      ['triage', 'read_attachment', 'untrusted'],
      ['billing', 'issue_refund', 'privileged'],
    ]);
    const error = (() => {
      try {
        transport.assertDone();
      } catch (e) {
        return e as TrajectoryDivergenceError;
      }
    })();
    expect(error?.message).toContain(
      "tool 'read_attachment' was untrusted when recorded and is trusted now (agent 'triage')",
    );
    expect(error?.expected).toEqual({
      'triage: read_attachment.untrusted': true,
      'billing: issue_refund.privileged': true,
    });
  });
});

describe("a sub-agent's run compares its own tools", () => {
  it('reports a changed annotation of a tool the sub-agent used, naming the call it ran in', async () => {
    const fetch = redeclared(fetchArticle, { annotations: { readOnly: false, destructive: false } });
    const error = await divergence('trajectories/researcher-taints-caller.yaml', planner(fetch));
    expect(error.kind).toBe('tool_changed');
    expect(error.message).toContain('(the run inside call toolu_');
    expect(error.message).toContain("tool 'fetch_article' was read-only when recorded and is not read-only now");
  });
});

describe('a divergence names the posture changes of its sub-agents too', () => {
  it("exact: the caller's request that differs names the sub-agent's tool made trusted", async () => {
    const trusting = redeclared(fetchArticle, { untrusted: false });
    const error = await divergence('trajectories/researcher-taints-caller.yaml', planner(trusting));
    // The caller's publish_post, blocked by the researcher's taint when recorded, would run today.
    expect(error.kind).toBe('decision');
    expect(error.message).toMatch(/publish_post \(turn \d\) was blocked by rule 'taint' \(source ask_researcher\)/);
    expect(error.message).toContain('likely cause:');
    expect(error.message).toContain("tool 'fetch_article' was untrusted when recorded and is trusted now");
  });
});

describe("the issue's case: the untrusted flag removed from the tool that reads outside content", () => {
  const file = 'trajectories/zero-trust.yaml';
  const assistant =
    (page: AnyTool): AgentFactory =>
    (transport) =>
      new Agent({
        name: 'assistant',
        model: 'claude-haiku-5-5',
        system: 'You help with invoices. Read what the user points you to, and pay only what the user asks you to pay.',
        tools: [page, sendPayment],
        transport,
        maxTurns: 6,
      });
  const trusted = redeclared(fetchPage, { untrusted: false });
  const says = "tool 'fetch_page' was untrusted when recorded and is trusted now";

  it.each(['exact', 'structure', 'shape'] as MatchLevel[])(
    '%s: the payment decided differently fails before it runs, naming the flag as the likely cause',
    async (match) => {
      const error = await runTrajectory({ file, agent: assistant(trusted), mode: 'replay', match }).catch((e) => e);
      expect(error).toMatchObject({ kind: 'decision' });
      expect((error as Error).message).toMatch(
        /send_payment \(turn \d\) was blocked by rule 'taint' \(source fetch_page\) when recorded; today's code would/,
      );
      expect((error as Error).message).toContain(`likely cause:\n  - ${says}`);
    },
  );
});

describe('redactions apply to both sides of the comparison, as the recording applied them', () => {
  const tempDir = useTempDir();
  const tool = (name: string) =>
    defineTool({
      name,
      description: 'Opens the vault.',
      input: { type: 'object', properties: {} },
      policy: 'vault-4242',
      run: () => 'opened',
    });
  const factory: AgentFactory = (transport) =>
    new Agent({
      name: 'front',
      model: 'claude-haiku-5-5',
      tools: [tool('peek')],
      authorizer: () => true,
      handoffs: [
        {
          name: 'back',
          description: 'The back office.',
          agent: new Agent({
            name: 'back',
            model: 'claude-haiku-5-5',
            tools: [tool('open')],
            authorizer: () => true,
            transport,
          }),
        },
      ],
      transport,
    });

  it("replays a file whose handoff target's posture was redacted, at every level, with no change found", async () => {
    const file = join(tempDir(), 'vault.yaml');
    const redactions = [{ pattern: /vault-\d+/ }];
    const script = () =>
      new ScriptedTransport([reply.toolUse('handoff_to_back', { reason: 'the vault' }), reply.text('Done.')]);
    await runTrajectory({ file, agent: factory, input: 'Open it.', mode: 'record', transport: script, redactions });
    const saved = loadTrajectory(file);
    expect(saved.tools[0]!.policy).toBe('vault-4242'); // the file's own header is not redacted
    expect(saved.agents!.back!.tools[0]!.policy).toBe('[REDACTED]');
    for (const match of ['exact', 'structure', 'shape'] as const)
      await expect(runTrajectory({ file, agent: factory, mode: 'replay', match, redactions })).resolves.toMatchObject({
        mode: 'replay',
      });
  });
});
