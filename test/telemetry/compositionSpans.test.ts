import { describe, expect, it } from 'vitest';
import { replayTrajectory } from '../../src/assert/vitest.js';
import { createPlanner } from '../../examples/research/agent.js';
import { createTriage } from '../../examples/desk/agent.js';
import { createTreasurer } from '../../examples/treasury/agent.js';
import { outline, spanTrees, useSpanRecorder, type SpanNode } from '../support/spanRecorder.js';

// No context manager is registered here: every parent link below is made explicitly.
const { spans } = useSpanRecorder();

const attribute = (name: string) => (node: SpanNode) => node.attributes[name];

describe('spans across agents and suspensions', () => {
  it('a sub-agent run is an invocation nested under the execute_tool span of the call that ran it', async () => {
    const result = await replayTrajectory(createPlanner, 'trajectories/researcher-taints-caller.yaml');
    const trees = spanTrees(spans());
    expect(outline(trees)).toEqual([
      'invoke_agent planner',
      '  chat claude-haiku-5-5',
      '  execute_tool ask_researcher',
      '    invoke_agent researcher',
      '      chat claude-haiku-5-5',
      '      execute_tool fetch_article',
      '      chat claude-haiku-5-5',
      '  chat claude-haiku-5-5',
      '  execute_tool publish_post',
      '  chat claude-haiku-5-5',
    ]);
    const [ask, publish] = trees[0]!.children.filter((node) => node.name.startsWith('execute_tool'));
    expect(ask!.attributes).toMatchObject({ 'legate.sub_agent': 'researcher', 'gen_ai.tool.call.id': 'toolu_s1_1' });
    const sub = ask!.children[0]!;
    expect(sub.attributes).toMatchObject({ 'gen_ai.agent.name': 'researcher', 'legate.tainted': true });
    expect(sub.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(publish!.attributes).toMatchObject({ 'legate.rule': 'taint', 'legate.source': 'ask_researcher' });
    // The caller's totals include the sub-agent's usage, as its result does.
    expect(trees[0]!.attributes['gen_ai.usage.input_tokens']).toBe(result.usage.inputTokens);
  });

  it('a handoff: the transfer call names both agents, and later spans the agent in charge', async () => {
    await replayTrajectory(createTriage, 'trajectories/handoff-to-billing.yaml');
    const [root] = spanTrees(spans());
    const transfer = root!.children.find((node) => node.name === 'execute_tool handoff_to_billing')!;
    expect(transfer.attributes).toMatchObject({ 'legate.handoff.from': 'triage', 'legate.handoff.to': 'billing' });
    expect(root!.children.filter((node) => node.name.startsWith('chat')).map(attribute('legate.agent'))).toEqual([
      'triage',
      'billing',
      'billing',
      'billing',
    ]);
    expect(root!.attributes).toMatchObject({ 'gen_ai.agent.name': 'triage', 'legate.agent.final': 'billing' });
    // A replay serves the privileged refund from the recording, and runs the read-only lookup for real.
    const tool = (name: string) => root!.children.find((node) => node.name === `execute_tool ${name}`)!.attributes;
    expect(tool('issue_refund')['legate.served']).toBe(true);
    expect(tool('lookup_invoice')['legate.served']).toBeUndefined();
  });

  it('a suspension and its resume: two invocations of one run, the approved call run in the second', async () => {
    await replayTrajectory(createTreasurer, 'trajectories/approval-granted.yaml');
    const trees = spanTrees(spans());
    expect(outline(trees)).toEqual([
      'invoke_agent treasurer',
      '  chat claude-haiku-5-5',
      '  execute_tool wire_money',
      'invoke_agent treasurer',
      '  execute_tool wire_money',
      '  chat claude-haiku-5-5',
    ]);
    const [stopped, resumed] = trees;
    expect(stopped!.attributes).toMatchObject({
      'legate.stop_reason': 'suspended',
      'legate.suspended': true,
      'legate.suspension.pending': ['toolu_s1_1'],
    });
    expect(stopped!.children[1]!.attributes).toMatchObject({ 'legate.decision': 'suspended' });
    expect(resumed!.attributes).toMatchObject({
      'legate.resumed': true,
      'legate.approval.approved': ['toolu_s1_1'],
      'legate.approval.denied': [],
      'legate.stop_reason': 'end_turn',
    });
    expect(resumed!.attributes['gen_ai.conversation.id']).toBe(stopped!.attributes['gen_ai.conversation.id']);
    expect(resumed!.children[0]!.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'toolu_s1_1',
      'legate.decision': 'run',
      'legate.approved': true,
      'legate.outcome': 'ok',
    });
    // Each invocation counts the tokens it spent: together, the run's.
    const spent = (node: SpanNode) => node.attributes['gen_ai.usage.input_tokens'] as number;
    const chats = spans().filter((span) => span.name.startsWith('chat'));
    const perCall = chats.reduce((sum, span) => sum + (span.attributes['gen_ai.usage.input_tokens'] as number), 0);
    expect(spent(stopped!) + spent(resumed!)).toBe(perCall);
    expect(spent(resumed!)).toBe(chats[1]!.attributes['gen_ai.usage.input_tokens']);
  });
});
