import { describe, expect, it } from 'vitest';
import '../../../src/assert/vitest.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  assertThat,
  auditTrajectory,
  defineTool,
  loadTrajectory,
  reply,
  rules,
  ScriptedTransport,
  UsageError,
  type ScriptStep,
} from '../../../src/index.js';
import { recordTrajectory } from '../../../src/replay/runTrajectory.js';
import { recordUnguarded } from '../../support/auditedRun.js';
import { useTempDir } from '../../support/tempDir.js';
import { caught, failureMessage as failure } from '../../support/caught.js';

const tempDir = useTempDir();
const TOOLS = ['fetch_page', 'lookup_invoice', 'send_payment', 'send_email'];
const declared = { untrusted: ['fetch_page'], privileged: ['send_payment'] };

describe('auditTrajectory on a run recorded without declarations', () => {
  it('finds a privileged call made after an untrusted result, naming both calls and the source', async () => {
    const trajectory = await recordUnguarded(tempDir(), TOOLS, [
      [{ tool: 'fetch_page' }],
      [{ tool: 'lookup_invoice' }],
      [{ tool: 'send_payment' }],
    ]);
    // The recording itself blocked nothing: nothing was declared when it ran.
    expect(trajectory.turns.flatMap((t) => t.results ?? []).map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
    const report = auditTrajectory(trajectory, declared);
    expect(report.clean).toBe(false);
    expect(report.findings).toEqual([
      {
        rule: 'taint',
        call: { id: 'toolu_3_0', name: 'send_payment', turn: 3 },
        source: { id: 'toolu_1_0', name: 'fetch_page', turn: 1 },
        message: expect.stringContaining("content from 'fetch_page', which is not trusted"),
        ran: true,
      },
    ]);
    expect(report.text).toContain(
      "'send_payment' (toolu_3_0, turn 3) ran after the result of 'fetch_page' (toolu_1_0, turn 1), which is " +
        'untrusted, entered the conversation',
    );
    expect(report.text).toContain('turn  1  fetch_page      ok  <- untrusted content enters the conversation');
    expect(report.text).toContain('turn  3  send_payment    ok  <- would be blocked (taint, source fetch_page)');

    const message = failure(() => expect(trajectory).toHaveNoUnsafeFlow(declared));
    expect(message).toContain('expected the run to have no unsafe flow, but ');
    expect(message).toContain("'send_payment' (toolu_3_0, turn 3) ran after the result of 'fetch_page'");
    expect(message).toContain('Timeline:');
    expect(failure(() => assertThat(trajectory).noUnsafeFlow(declared))).toBe(message);
    expect(trajectory).not.toHaveNoUnsafeFlow(declared);
  });

  it('passes a clean run: the privileged call came before the untrusted read', async () => {
    const before = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'send_payment' }], [{ tool: 'fetch_page' }]]);
    expect(auditTrajectory(before, declared)).toMatchObject({ clean: true, findings: [] });
    expect(before).toHaveNoUnsafeFlow(declared);
    assertThat(before).noUnsafeFlow(declared);
    expect(failure(() => expect(before).not.toHaveNoUnsafeFlow(declared))).toContain(
      'expected the run to have an unsafe flow, but no call the guard would have blocked was carried out.',
    );
  });

  it('counts a call refused in the recording too as a finding, but not as an unsafe flow', () => {
    // Recorded by a guarded agent: send_payment was blocked there, so it never ran.
    const trajectory = loadTrajectory('trajectories/zero-trust.yaml');
    const report = auditTrajectory(trajectory, declared);
    expect(report.findings.map((f) => [f.rule, f.call.name, f.source?.name, f.ran])).toEqual([
      ['taint', 'send_payment', 'fetch_page', false],
    ]);
    expect(report.clean).toBe(true);
    expect(trajectory).toHaveNoUnsafeFlow(declared);
    expect(report.text).toContain('No unsafe flow: no call the guard would have blocked was carried out.');
    expect(report.text).toContain('1 call the guard would have blocked, not carried out in the recording:');
    expect(report.text).toMatch(/send_payment {2}blocked {2}<- would be blocked \(taint, source fetch_page\)/);
  });

  it('needs no tool list in the header: a trajectory recorded from another agent may offer none', async () => {
    const recorded = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'fetch_page' }], [{ tool: 'send_payment' }]]);
    const bare = { ...recorded, tools: [] };
    expect(auditTrajectory(bare, declared).findings).toEqual(auditTrajectory(recorded, declared).findings);
    expect(auditTrajectory(bare, declared).findings.map((f) => [f.call.name, f.source?.name])).toEqual([
      ['send_payment', 'fetch_page'],
    ]);
  });

  it("taints from a server tool's result in a response (a real web search capture), naming its turn", async () => {
    const capture = JSON.parse(
      readFileSync('test/fixtures/api-captures/anthropic-sdk-py--web-search.json', 'utf8'),
    ).response.body.content.filter((block: { type: string }) => block.type !== 'text' && block.type !== 'tool_use');
    const lookup = defineTool({ name: 'lookup_invoice', description: 'Looks up.', input: {}, run: () => 'due' });
    const pay = defineTool({ name: 'send_payment', description: 'Pays.', input: {}, run: () => 'paid' });
    const script = [
      reply.toolUses([{ name: 'lookup_invoice', input: {}, id: 'toolu_1' }]),
      {
        content: [...capture, { type: 'tool_use', id: 'toolu_2', name: 'lookup_invoice', input: {} }],
        stopReason: 'tool_use',
      } as ScriptStep,
      reply.toolUses([{ name: 'send_payment', input: {}, id: 'toolu_3' }]),
      reply.text('Paid.'),
    ];
    const file = join(tempDir(), 'search.yaml');
    await recordTrajectory({
      file,
      config: false,
      report: false,
      input: 'Search, then pay.',
      transport: () => new ScriptedTransport(script),
      agent: (transport) =>
        new Agent({
          name: 'desk',
          model: 'm',
          transport,
          tools: [lookup, pay, { type: 'web_search_20250305', name: 'web_search' }],
        }),
    });
    const report = auditTrajectory(loadTrajectory(file), { privileged: ['send_payment'] });
    expect(report.findings.map((f) => [f.call.name, f.call.turn, f.source])).toEqual([
      ['send_payment', 3, { id: 'srvtoolu_01JCzA8PXrZDNPK9pSt8KCE9', name: 'web_search', turn: 2 }],
    ]);
  });

  it('taints from an error result the tool returned, not from one it threw (as a live run does)', async () => {
    const returned = await recordUnguarded(tempDir(), TOOLS, [
      [{ tool: 'fetch_page', answer: 'toolError' }],
      [{ tool: 'send_payment' }],
    ]);
    expect(auditTrajectory(returned, declared).findings.map((f) => f.rule)).toEqual(['taint']);
    const thrown = await recordUnguarded(tempDir(), TOOLS, [
      [{ tool: 'fetch_page', answer: 'throws' }],
      [{ tool: 'send_payment' }],
    ]);
    expect(auditTrajectory(thrown, declared).clean).toBe(true);
  });

  it('finds a missing prerequisite and an exceeded limit', async () => {
    const trajectory = await recordUnguarded(tempDir(), TOOLS, [
      [{ tool: 'send_payment' }],
      [{ tool: 'lookup_invoice' }],
      [{ tool: 'send_email' }, { tool: 'send_email' }],
      [{ tool: 'send_payment' }, { tool: 'send_email' }],
    ]);
    const report = auditTrajectory(trajectory, {
      rules: [rules.require('send_payment', 'lookup_invoice'), rules.limit('send_email', 2)],
    });
    expect(report.findings.map((f) => [f.rule, f.call.id, f.call.turn])).toEqual([
      ['prerequisite', 'toolu_1_0', 1],
      ['limit', 'toolu_4_1', 4],
    ]);
    expect(report.findings[0]!.message).toContain("it can only run after 'lookup_invoice' has succeeded");
    expect(report.text).toContain("'send_email' (toolu_4_1, turn 4) would have been blocked (limit)");
  });

  it('classifies by MCP hints: a hinted tool taints unless named trusted; not read-only is privileged', async () => {
    const trajectory = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'fetch_page' }], [{ tool: 'send_email' }]]);
    const hints = {
      annotations: {
        fetch_page: { readOnlyHint: true, openWorldHint: true },
        send_email: { readOnlyHint: false, openWorldHint: false },
      },
    };
    const report = auditTrajectory(trajectory, hints);
    expect(report.findings.map((f) => [f.call.name, f.source?.name])).toEqual([['send_email', 'fetch_page']]);
    // A closed world does not make what it returns trusted: the page still taints the run.
    const closed = { annotations: { ...hints.annotations, fetch_page: { readOnlyHint: true, openWorldHint: false } } };
    expect(auditTrajectory(trajectory, closed).findings.map((f) => [f.call.name, f.source?.name])).toEqual([
      ['send_email', 'fetch_page'],
    ]);
    expect(auditTrajectory(trajectory, { ...closed, trusted: ['fetch_page'] }).clean).toBe(true);
  });

  it('classifies by the annotations a trajectory recorded when asked, the given ones winning', () => {
    const trajectory = loadTrajectory('trajectories/zero-trust.yaml');
    // Without declarations by name, the recorded hints alone: fetch_page reads the open world, send_payment writes.
    expect(auditTrajectory(trajectory, { untrusted: [] }).findings).toEqual([]);
    const report = auditTrajectory(trajectory, { recordedAnnotations: true });
    expect(report.findings.map((f) => [f.rule, f.call.name, f.source?.name])).toEqual([
      ['taint', 'send_payment', 'fetch_page'],
    ]);
    const closed = { recordedAnnotations: true, annotations: { fetch_page: { openWorldHint: false } } };
    expect(auditTrajectory(trajectory, closed).findings).toHaveLength(1);
    expect(auditTrajectory(trajectory, { recordedAnnotations: true, trusted: ['fetch_page'] }).findings).toEqual([]);
  });

  it('refuses declarations it cannot read, saying what it expected', async () => {
    const trajectory = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'fetch_page' }]]);
    const bad: [unknown, string][] = [
      [
        null,
        'must be an object { untrusted, trusted, privileged, annotations, recordedAnnotations, rules, sensitive, ' +
          'outsideAuthored }, but it was null',
      ],
      [{ untrusted: 'fetch_page' }, "'untrusted' must be a list of tool names"],
      [{ trust: [] }, "have no 'trust'"],
      [{ trusted: 'fetch_page' }, "'trusted' must be a list of tool names"],
      [{ annotations: { fetch_page: { readOnly: true } } }, "has 'readOnly', not one of readOnlyHint"],
      [{ rules: [rules.terminal('send_payment')] }, 'is a terminal rule, which an audit does not check'],
      [{ rules: [{ kind: 'limit' }] }, "'rules[0]' (a limit rule) needs 'tool'"],
      [{ recordedAnnotations: 'yes' }, "'recordedAnnotations' must be true or false"],
    ];
    for (const [declarations, expected] of bad) {
      const error = caught(() => auditTrajectory(trajectory, declarations as never), UsageError);
      expect(error).toMatchObject({ code: 'invalid_audit_declarations' });
      expect(error.message).toContain(expected);
    }
    expect(() => auditTrajectory(trajectory, { rules: [rules.limit('send_email', 0)] })).toThrow(
      expect.objectContaining({
        code: 'invalid_audit_declarations',
        message:
          "The audit's declarations 'rules[0]' (the limit on 'send_email') must be a whole number of calls of at " +
          'least 1, but it was the number 0.',
      }),
    );
  });

  it('toHaveNoUnsafeFlow refuses a live result: it audits a recorded run', async () => {
    const trajectory = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'fetch_page' }]]);
    const { runGuarded } = await import('../../support/auditedRun.js');
    const result = await runGuarded(TOOLS, [[{ tool: 'fetch_page' }]], {});
    expect(trajectory).toHaveNoUnsafeFlow(declared);
    expect(() => expect(result).toHaveNoUnsafeFlow(declared)).toThrow(
      expect.objectContaining({ code: 'not_a_trajectory' }),
    );
  });
});

describe('auditTrajectory on a file holding several conversations', () => {
  it('audits each conversation on its own and names the conversation of each call', async () => {
    const clean = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'lookup_invoice' }], [{ tool: 'send_payment' }]]);
    const unsafe = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'fetch_page' }], [{ tool: 'send_payment' }]]);
    const { agent, model, request, tools, input, turns, summary } = unsafe;
    const both = { ...clean, conversations: [{ agent, model, request, tools, input, turns, summary }] };
    const report = auditTrajectory(both, declared);
    expect(report.findings).toEqual([
      expect.objectContaining({
        rule: 'taint',
        call: { id: 'toolu_2_0', name: 'send_payment', turn: 2, conversation: 2 },
        source: { id: 'toolu_1_0', name: 'fetch_page', turn: 1, conversation: 2 },
      }),
    ]);
    expect(report.steps.map((step) => step.conversation)).toEqual([1, 1, 2, 2]);
    expect(report.text).toContain("'send_payment' (toolu_2_0, conversation 2, turn 2) ran after the result of");
    expect(report.text).toContain('conversation 2, turn  1  fetch_page      ok  <- untrusted content enters');
    // Taint does not cross from one conversation into the other: the first one's payment stands.
    const reversed = { ...unsafe, conversations: [{ ...clean, conversations: undefined }] };
    expect(auditTrajectory(reversed, declared).findings.map((f) => f.call.conversation)).toEqual([1]);
  });
});

describe("auditTrajectory on a sub-agent's run recorded inside a tool call", () => {
  it('audits it as a run of its own, its steps after the call that ran it, naming where each call is', async () => {
    const parent = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'lookup_invoice' }], [{ tool: 'send_email' }]]);
    const child = await recordUnguarded(tempDir(), TOOLS, [[{ tool: 'fetch_page' }], [{ tool: 'send_payment' }]]);
    const { agent, model, request, tools, input, turns, summary } = child;
    const nested = structuredClone(parent);
    nested.turns[0]!.results![0]!.subRun = { agent, model, request, tools, input, turns, summary };
    const report = auditTrajectory(nested, declared);
    expect(report.steps.map((step) => [step.inside, step.id, step.name])).toEqual([
      [undefined, 'toolu_1_0', 'lookup_invoice'],
      ['toolu_1_0', 'toolu_1_0', 'fetch_page'],
      ['toolu_1_0', 'toolu_2_0', 'send_payment'],
      [undefined, 'toolu_2_0', 'send_email'],
    ]);
    expect(report.findings).toEqual([
      expect.objectContaining({
        rule: 'taint',
        call: { id: 'toolu_2_0', name: 'send_payment', turn: 2, inside: 'toolu_1_0' },
        source: { id: 'toolu_1_0', name: 'fetch_page', turn: 1, inside: 'toolu_1_0' },
        ran: true,
      }),
    ]);
    expect(report.text).toContain("'send_payment' (toolu_2_0, inside toolu_1_0, turn 2) ran after the result of");
    expect(report.text).toContain('inside toolu_1_0, turn  1  fetch_page      ok  <- untrusted content enters');
    // The sub-agent's taint stays in its run: the caller's own calls are not marked by it.
    expect(report.steps.filter((step) => step.inside === undefined && step.taints === true)).toEqual([]);
  });
});
