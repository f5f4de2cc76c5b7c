import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply } from '../../src/index.js';
import type { AgentOptions, AnyTool, ScriptStep, ToolStub } from '../../src/index.js';

// Which settings follow the run and which the agent in charge (docs/composition.md, "Run settings
// and agent settings"): the clock, tool stub, transport, transfer budget and shadow mode of the
// run stay with it across handoffs, sub-agents and resumes; a target's own are not used there.

const model = 'claude-haiku-5-5';
const noInput = { type: 'object', properties: {} } as const;
const RUN_CLOCK = new Date('2026-01-01T00:00:00Z');
const TARGET_CLOCK = new Date('2031-07-07T07:07:07Z');
const SUB_CLOCK = new Date('2040-02-02T02:02:02Z');
const RESUME_CLOCK = new Date('2027-03-03T03:03:03Z');

/** A tool that answers with the time it reads, and keeps every reading. */
function stampTool(name: string, readings: string[], flags: { privileged?: boolean } = {}): AnyTool {
  return defineTool({
    name,
    description: 'Reads the clock.',
    input: noInput,
    ...flags,
    run: (_args, ctx) => {
      const time = ctx.now().toISOString();
      readings.push(time);
      return time;
    },
  });
}

const at = (date: Date) => () => new Date(date);
const iso = (...dates: Date[]) => dates.map((date) => date.toISOString());

function agent(name: string, script: ScriptStep[], options: Partial<AgentOptions> = {}): Agent {
  return new Agent({ name, model, transport: new ScriptedTransport(script), ...options });
}

/** An entry agent that hands off to `target`, then its model makes the calls of `script`. */
function entryTo(target: Agent, script: ScriptStep[], options: Partial<AgentOptions> = {}): Agent {
  const handoffs = [{ name: 'target', agent: target, description: 'Takes over.' }];
  const steps = [reply.toolUse('handoff_to_target', {}), ...script, reply.text('Done.')];
  return agent('entry', steps, { handoffs, ...options });
}

describe("a handoff keeps the run's settings", () => {
  it("a tool of the target reads the run's clock, not the clock the target was built with", async () => {
    const readings: string[] = [];
    const target = agent('target', [], { clock: at(TARGET_CLOCK), tools: [stampTool('stamp', readings)] });
    const result = await entryTo(target, [reply.toolUse('stamp', {})], { clock: at(RUN_CLOCK) }).run('stamp it');
    expect(result).toMatchObject({ stopReason: 'end_turn', agent: 'target' });
    expect(readings).toEqual(iso(RUN_CLOCK));
  });

  it("a shadow run stays a dry run after a handoff: the target's privileged tools are planned, not run", async () => {
    const readings: string[] = [];
    const target = agent('target', [], { tools: [stampTool('wire', readings, { privileged: true })] });
    const result = await entryTo(target, [reply.toolUse('wire', {})], { mode: 'shadow' }).run('wire it');
    expect(readings).toEqual([]);
    expect(result.toolCalls.find((call) => call.name === 'wire')).toMatchObject({ outcome: 'planned', rule: 'shadow' });
    expect(result.plannedEffects).toMatchObject([{ tool: 'wire' }]);
  });

  it('a target built in shadow mode stays in shadow mode when a live run reaches it', async () => {
    const readings: string[] = [];
    const target = agent('target', [], { mode: 'shadow', tools: [stampTool('wire', readings, { privileged: true })] });
    const result = await entryTo(target, [reply.toolUse('wire', {})]).run('wire it');
    expect(readings).toEqual([]);
    expect(result.toolCalls.find((call) => call.name === 'wire')).toMatchObject({ outcome: 'planned', rule: 'shadow' });
  });
});

describe("a resume after a handoff keeps the run's settings", () => {
  /** Stamps, hands off, stamps, stops for approval of `wire`, then stamps (or asks the clerk). */
  function suspendingAfterHandoff(readings: string[], clerk?: Agent): Agent {
    const tools = [stampTool('wire', readings, { privileged: true }), stampTool('stamp', readings)];
    if (clerk !== undefined) tools.push(clerk.asTool('ask_clerk', 'Asks the clerk.'));
    const approvalRequired = (tool: AnyTool) => tool.name === 'wire';
    const target = agent('target', [], { clock: at(TARGET_CLOCK), tools, approvalRequired });
    const later = clerk === undefined ? reply.toolUse('stamp', {}) : reply.toolUse('ask_clerk', { request: 'time?' });
    return entryTo(target, [reply.toolUse('stamp', {}), reply.toolUse('wire', {}), later], { clock: at(RUN_CLOCK) });
  }

  it("the approved call and later calls read the run's clock (the resuming agent's), not the target's", async () => {
    const readings: string[] = [];
    const entry = suspendingAfterHandoff(readings);
    const suspended = await entry.run('wire it');
    expect(suspended).toMatchObject({ stopReason: 'suspended', agent: 'target' });
    const result = await entry.resume(suspended.suspension!, { approve: true });
    expect(result).toMatchObject({ stopReason: 'end_turn', agent: 'target' });
    // Before the suspension, the approved call, and a later call: one clock, the run's.
    expect(readings).toEqual(iso(RUN_CLOCK, RUN_CLOCK, RUN_CLOCK));
  });

  it("a clock given to resume is the run's clock from then on", async () => {
    const readings: string[] = [];
    const entry = suspendingAfterHandoff(readings);
    const suspended = await entry.run('wire it');
    await entry.resume(suspended.suspension!, { approve: true, clock: at(RESUME_CLOCK) });
    expect(readings).toEqual(iso(RUN_CLOCK, RESUME_CLOCK, RESUME_CLOCK));
  });

  it("a sub-agent called after the resume reads the run's clock, not its own nor the target's", async () => {
    const readings: string[] = [];
    const clerkScript = [reply.toolUse('clerk_stamp', {}), reply.text('Noted.')];
    const clerk = agent('clerk', clerkScript, { clock: at(SUB_CLOCK), tools: [stampTool('clerk_stamp', readings)] });
    const entry = suspendingAfterHandoff(readings, clerk);
    const suspended = await entry.run('wire it');
    const result = await entry.resume(suspended.suspension!, { approve: true });
    const asked = result.toolCalls.find((call) => call.name === 'ask_clerk');
    expect(asked).toMatchObject({ outcome: 'ok', output: 'Noted.' });
    expect(readings).toEqual(iso(RUN_CLOCK, RUN_CLOCK, RUN_CLOCK));
  });

  it("a tool stub given to resume answers the target's calls", async () => {
    const readings: string[] = [];
    const entry = suspendingAfterHandoff(readings);
    const suspended = await entry.run('wire it');
    const toolStub: ToolStub = ({ id, name, input }, turn) =>
      name === 'stamp' ? { id, name, input, outcome: 'ok', output: 'stubbed', turn } : undefined;
    const result = await entry.resume(suspended.suspension!, { approve: true, toolStub });
    const stamps = result.toolCalls.filter((call) => call.name === 'stamp').map((call) => call.output);
    expect(stamps).toEqual([RUN_CLOCK.toISOString(), 'stubbed']);
  });
});

describe("a sub-agent runs on its caller's clock", () => {
  it('directly, and inside a handoff target', async () => {
    const readings: string[] = [];
    const clerkTool = () => {
      const script = [reply.toolUse('clerk_stamp', {}), reply.text('Noted.')];
      const clerk = agent('clerk', script, { clock: at(SUB_CLOCK), tools: [stampTool('clerk_stamp', readings)] });
      return clerk.asTool('ask_clerk', 'Asks.');
    };
    const asking = [reply.toolUse('ask_clerk', { request: 'time?' }), reply.text('ok')];
    await agent('caller', asking, { clock: at(RUN_CLOCK), tools: [clerkTool()] }).run('go');
    const target = agent('target', [], { clock: at(TARGET_CLOCK), tools: [clerkTool()] });
    await entryTo(target, [reply.toolUse('ask_clerk', { request: 'time?' })], { clock: at(RUN_CLOCK) }).run('go');
    expect(readings).toEqual(iso(RUN_CLOCK, RUN_CLOCK));
  });
});
