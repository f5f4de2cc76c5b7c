import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, type AnyTool } from '../../src/index.js';

// Which settings follow the run and which the agent in charge (docs/composition.md, "Run settings
// and agent settings"): the clock, tool stub, transport, transfer budget and shadow mode of the
// run stay with it across handoffs, sub-agents and resumes; the target's own are not used there.

const model = 'claude-haiku-5-5';
const noInput = { type: 'object', properties: {} } as const;
const RUN_CLOCK = new Date('2026-01-01T00:00:00Z');
const TARGET_CLOCK = new Date('2031-07-07T07:07:07Z');
const SUB_CLOCK = new Date('2040-02-02T02:02:02Z');
const RESUME_CLOCK = new Date('2027-03-03T03:03:03Z');

/** A tool that answers with the time it reads, and keeps every reading. */
function stampTool(name: string, readings: string[], flags: { privileged?: boolean } = {}): AnyTool {
  return defineTool({ name, description: 'Reads the clock.', input: noInput, ...flags, run: (_args, ctx) => {
    const time = ctx.now().toISOString();
    readings.push(time);
    return time;
  } });
}

const at = (date: Date) => () => new Date(date);

describe('a handoff keeps the run\'s settings', () => {
  it('a tool of the target reads the run\'s clock, not the clock the target was built with', async () => {
    const readings: string[] = [];
    const target = new Agent({ name: 'target', model, transport: new ScriptedTransport([]), clock: at(TARGET_CLOCK), tools: [stampTool('stamp', readings)] });
    const script = new ScriptedTransport([reply.toolUse('handoff_to_target', {}), reply.toolUse('stamp', {}), reply.text('Done.')]);
    const entry = new Agent({ name: 'entry', model, transport: script, clock: at(RUN_CLOCK), handoffs: [{ name: 'target', agent: target, description: 'Stamps.' }] });
    const result = await entry.run('stamp it');
    expect(result).toMatchObject({ stopReason: 'end_turn', agent: 'target' });
    expect(readings).toEqual([RUN_CLOCK.toISOString()]);
  });

  it('a shadow run stays a dry run after a handoff: the target\'s privileged tools are planned, not run', async () => {
    const readings: string[] = [];
    const target = new Agent({ name: 'target', model, transport: new ScriptedTransport([]), tools: [stampTool('wire', readings, { privileged: true })] });
    const script = new ScriptedTransport([reply.toolUse('handoff_to_target', {}), reply.toolUse('wire', {}), reply.text('Done.')]);
    const entry = new Agent({ name: 'entry', model, transport: script, mode: 'shadow', handoffs: [{ name: 'target', agent: target, description: 'Wires.' }] });
    const result = await entry.run('wire it');
    expect(readings).toEqual([]);
    expect(result.toolCalls.find((call) => call.name === 'wire')).toMatchObject({ outcome: 'planned', rule: 'shadow' });
    expect(result.plannedEffects).toMatchObject([{ tool: 'wire' }]);
  });

  it('a target built in shadow mode stays in shadow mode when a live run reaches it', async () => {
    const readings: string[] = [];
    const target = new Agent({ name: 'target', model, mode: 'shadow', transport: new ScriptedTransport([]), tools: [stampTool('wire', readings, { privileged: true })] });
    const script = new ScriptedTransport([reply.toolUse('handoff_to_target', {}), reply.toolUse('wire', {}), reply.text('Done.')]);
    const entry = new Agent({ name: 'entry', model, transport: script, handoffs: [{ name: 'target', agent: target, description: 'Wires.' }] });
    const result = await entry.run('wire it');
    expect(readings).toEqual([]);
    expect(result.toolCalls.find((call) => call.name === 'wire')).toMatchObject({ outcome: 'planned', rule: 'shadow' });
  });
});

describe('a resume after a handoff keeps the run\'s settings', () => {
  function suspendedAfterHandoff(readings: string[], subAgent?: Agent) {
    const tools = [stampTool('wire', readings, { privileged: true }), stampTool('stamp', readings), ...(subAgent === undefined ? [] : [subAgent.asTool('ask_clerk', 'Asks the clerk.')])];
    const target = new Agent({ name: 'target', model, transport: new ScriptedTransport([]), clock: at(TARGET_CLOCK), tools, approvalRequired: (tool) => tool.name === 'wire' });
    const later = subAgent === undefined ? reply.toolUse('stamp', {}) : reply.toolUse('ask_clerk', { request: 'the time?' });
    const script = new ScriptedTransport([reply.toolUse('handoff_to_target', {}), reply.toolUse('stamp', {}), reply.toolUse('wire', {}), later, reply.text('Done.')]);
    const entry = new Agent({ name: 'entry', model, transport: script, clock: at(RUN_CLOCK), handoffs: [{ name: 'target', agent: target, description: 'Wires.' }] });
    return entry;
  }

  it('the approved call and the calls after it read the run\'s clock (the resuming agent\'s), not the target\'s', async () => {
    const readings: string[] = [];
    const entry = suspendedAfterHandoff(readings);
    const suspended = await entry.run('wire it');
    expect(suspended).toMatchObject({ stopReason: 'suspended', agent: 'target' });
    const result = await entry.resume(suspended.suspension!, { approve: true });
    expect(result).toMatchObject({ stopReason: 'end_turn', agent: 'target' });
    // Before the suspension, the approved call, and a later call: one clock, the run's.
    expect(readings).toEqual([RUN_CLOCK, RUN_CLOCK, RUN_CLOCK].map((d) => d.toISOString()));
  });

  it('a clock given to resume is the run\'s clock from then on', async () => {
    const readings: string[] = [];
    const entry = suspendedAfterHandoff(readings);
    const suspended = await entry.run('wire it');
    await entry.resume(suspended.suspension!, { approve: true, clock: at(RESUME_CLOCK) });
    expect(readings).toEqual([RUN_CLOCK, RESUME_CLOCK, RESUME_CLOCK].map((d) => d.toISOString()));
  });

  it('a sub-agent called after the resume reads the run\'s clock too, not its own nor the target\'s', async () => {
    const readings: string[] = [];
    const clerk = new Agent({ name: 'clerk', model, clock: at(SUB_CLOCK), tools: [stampTool('clerk_stamp', readings)], transport: new ScriptedTransport([reply.toolUse('clerk_stamp', {}), reply.text('Noted.')]) });
    const entry = suspendedAfterHandoff(readings, clerk);
    const suspended = await entry.run('wire it');
    const result = await entry.resume(suspended.suspension!, { approve: true });
    expect(result.toolCalls.find((call) => call.name === 'ask_clerk')).toMatchObject({ outcome: 'ok', output: 'Noted.' });
    expect(readings).toEqual([RUN_CLOCK, RUN_CLOCK, RUN_CLOCK].map((d) => d.toISOString()));
  });

  it('tool stubs given to resume answer the target\'s calls', async () => {
    const readings: string[] = [];
    const entry = suspendedAfterHandoff(readings);
    const suspended = await entry.run('wire it');
    const toolStub = (block: { id: string; name: string; input: unknown }, turn: number) => (block.name === 'stamp' ? { id: block.id, name: block.name, input: block.input, outcome: 'ok' as const, output: 'stubbed', turn } : undefined);
    const result = await entry.resume(suspended.suspension!, { approve: true, toolStub });
    expect(result.toolCalls.filter((call) => call.name === 'stamp').map((call) => call.output)).toEqual([RUN_CLOCK.toISOString(), 'stubbed']);
  });
});

describe('a sub-agent runs on its caller\'s clock', () => {
  it('directly, and inside a handoff target', async () => {
    const readings: string[] = [];
    const clerk = () => new Agent({ name: 'clerk', model, clock: at(SUB_CLOCK), tools: [stampTool('clerk_stamp', readings)], transport: new ScriptedTransport([reply.toolUse('clerk_stamp', {}), reply.text('Noted.')]) });
    const caller = new Agent({ name: 'caller', model, clock: at(RUN_CLOCK), tools: [clerk().asTool('ask_clerk', 'Asks.')], transport: new ScriptedTransport([reply.toolUse('ask_clerk', { request: 'time?' }), reply.text('ok')]) });
    await caller.run('go');
    const target = new Agent({ name: 'target', model, clock: at(TARGET_CLOCK), tools: [clerk().asTool('ask_clerk', 'Asks.')], transport: new ScriptedTransport([]) });
    const script = new ScriptedTransport([reply.toolUse('handoff_to_target', {}), reply.toolUse('ask_clerk', { request: 'time?' }), reply.text('ok')]);
    const entry = new Agent({ name: 'entry', model, clock: at(RUN_CLOCK), transport: script, handoffs: [{ name: 'target', agent: target, description: 'Asks.' }] });
    await entry.run('go');
    expect(readings).toEqual([RUN_CLOCK, RUN_CLOCK].map((d) => d.toISOString()));
  });
});
