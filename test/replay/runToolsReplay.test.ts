import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentFactory,
  type RunTools,
  type ScriptedReply,
  type ToolAnnotations,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

interface ToolSpec {
  name: string;
  privileged?: boolean;
  compensatedBy?: string;
  remote?: boolean;
  annotations?: ToolAnnotations;
}

/** An agent with the given tools, each counting its runs in `ran` and answering with `answer`. */
function agentWith(specs: readonly ToolSpec[], ran: string[], answer = 'done'): AgentFactory {
  return (transport) =>
    new Agent({
      name: 'worker',
      model: 'claude-haiku-5-5',
      transport,
      tools: specs.map((spec) =>
        defineTool({
          name: spec.name,
          description: `Does ${spec.name}.`,
          input: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
          ...(spec.privileged === undefined ? {} : { privileged: spec.privileged }),
          ...(spec.compensatedBy === undefined ? {} : { compensatedBy: spec.compensatedBy }),
          ...(spec.remote === undefined ? {} : { remote: spec.remote }),
          ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
          run: ({ what }: { what: string }) => {
            ran.push(spec.name);
            return `${spec.name} ${answer}: ${what}`;
          },
        }),
      ),
    });
}

async function record(specs: readonly ToolSpec[], script: ScriptedReply[], options: { redactions?: never[] } = {}) {
  const file = join(tempDir(), 'run.yaml');
  await runTrajectory({
    file,
    agent: agentWith(specs, [], 'recorded'),
    input: 'Do it.',
    mode: 'record',
    transport: () => new ScriptedTransport(script),
    report: false,
    ...options,
  });
  return file;
}

async function replay(file: string, specs: readonly ToolSpec[], runTools?: RunTools) {
  const ran: string[] = [];
  const { result, served } = await runTrajectory({
    file,
    agent: agentWith(specs, ran, 'today'),
    mode: 'replay',
    match: 'structure',
    ...(runTools === undefined ? {} : { runTools }),
  });
  return { ran, result, served };
}

const callEach = (specs: readonly ToolSpec[]): ScriptedReply[] => [
  reply.toolUses(specs.map((spec) => ({ name: spec.name, input: { what: 'x' } }))),
  reply.text('Done.'),
];

describe('what a replay runs', () => {
  const specs: ToolSpec[] = [
    { name: 'wire_money', privileged: true },
    { name: 'delete_file', annotations: { destructive: true } },
    { name: 'write_note', annotations: { destructive: false } },
    { name: 'read_file', annotations: { readOnly: true } },
    { name: 'add_numbers' },
    { name: 'book_room', compensatedBy: 'cancel_room' },
    { name: 'cancel_room' },
  ];

  it('by default serves the privileged, the compensated and the not-read-only tools, and runs the rest', async () => {
    const file = await record(specs, callEach(specs));
    const { ran, result, served } = await replay(file, specs);
    expect(ran.sort()).toEqual(['add_numbers', 'cancel_room', 'read_file']);
    // The run says which calls were answered from the recording: exactly those not run.
    expect(served!.map((call) => call.tool).sort()).toEqual(['book_room', 'delete_file', 'wire_money', 'write_note']);
    expect(served!.map((call) => call.id)).toEqual(
      result.toolCalls.filter((call) => !ran.includes(call.name)).map((call) => call.id),
    );
    expect(result.toolCalls.find((c) => c.name === 'wire_money')).toMatchObject({
      outcome: 'ok',
      output: 'wire_money recorded: x',
    });
    expect(result.toolCalls.find((c) => c.name === 'read_file')!.output).toBe('read_file today: x');
  });

  it('runs every tool with runTools: all, and none with none', async () => {
    const file = await record(specs, callEach(specs));
    expect((await replay(file, specs, 'all')).ran.sort()).toEqual(specs.map((s) => s.name).sort());
    expect((await replay(file, specs, 'none')).ran).toEqual([]);
  });

  it('takes named exceptions over the default', async () => {
    const file = await record(specs, callEach(specs));
    const { ran } = await replay(file, specs, { run: ['delete_file'], serve: ['add_numbers'] });
    expect(ran.sort()).toEqual(['cancel_room', 'delete_file', 'read_file']);
  });

  it('never runs a tool with side effects, nor a remote one, by default (any flags, any annotations)', async () => {
    const annotations = fc.option(
      fc.record({ readOnly: fc.boolean(), destructive: fc.boolean(), idempotent: fc.boolean() }, { requiredKeys: [] }),
      { nil: undefined },
    );
    const spec = fc.record({ privileged: fc.boolean(), remote: fc.boolean(), annotations });
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 4 }), async (drawn) => {
        const tools = drawn.map((s, i) => ({
          name: `tool_${i}`,
          privileged: s.privileged,
          remote: s.remote,
          ...(s.annotations === undefined ? {} : { annotations: s.annotations }),
        }));
        const file = await record(tools, callEach(tools));
        const { ran } = await replay(file, tools);
        const sideEffects = tools.filter(
          (t) => t.privileged || t.remote || (t.annotations !== undefined && !t.annotations.readOnly),
        );
        for (const tool of sideEffects) expect(ran).not.toContain(tool.name);
        expect(ran.length).toBe(tools.length - sideEffects.length);
      }),
      { numRuns: 25, seed: 12 },
    );
  });
});

describe('a redacted input', () => {
  const specs: ToolSpec[] = [{ name: 'lookup_card', annotations: { readOnly: true } }];
  const script = [reply.toolUse('lookup_card', { what: '4111 1111 1111 1111' }), reply.text('Found.')];
  const redactions = [{ pattern: /\d{4} \d{4} \d{4} \d{4}/, placeholder: '[CARD]' }];

  it('is marked when recorded, with a warning, and served, never run with the placeholder', async () => {
    const file = join(tempDir(), 'card.yaml');
    const told: string[] = [];
    await runTrajectory({
      file,
      agent: agentWith(specs, [], 'recorded'),
      input: 'Find my card.',
      mode: 'record',
      transport: () => new ScriptedTransport(script),
      redactions,
      report: (message) => told.push(message),
    });
    expect(loadTrajectory(file).turns[0]!.results![0]).toMatchObject({ redactedInput: true });
    expect(told).toEqual([
      expect.stringMatching(
        /a redaction changed the input of call toolu_\w+ \('lookup_card'\), so a replay serves its recorded result/,
      ),
    ]);
    const ran: string[] = [];
    const { result } = await runTrajectory({
      file,
      agent: agentWith(specs, ran, 'today'),
      mode: 'replay',
      redactions,
      runTools: 'all',
    });
    expect(ran).toEqual([]);
    expect(result.toolCalls[0]!.output).toBe('lookup_card recorded: [CARD]');
  });

  it('is not marked when no redaction touched the input', async () => {
    const file = await record(specs, [reply.toolUse('lookup_card', { what: 'mine' }), reply.text('Found.')]);
    expect(loadTrajectory(file).turns[0]!.results![0]!.redactedInput).toBeUndefined();
  });
});

describe('a sub-agent’s tools', () => {
  it('are run or served by the same rule, inside the call that runs the sub-agent', async () => {
    const ran: string[] = [];
    const inner: ToolSpec[] = [
      { name: 'search_web', annotations: { readOnly: true } },
      { name: 'save_draft', annotations: { destructive: true } },
    ];
    const planner =
      (answer: string): AgentFactory =>
      (transport) =>
        new Agent({
          name: 'planner',
          model: 'claude-haiku-5-5',
          transport,
          tools: [agentWith(inner, ran, answer)(transport).asTool('ask_worker', 'Asks the worker.')],
        });
    const file = join(tempDir(), 'nested.yaml');
    let model = 0;
    await runTrajectory({
      file,
      agent: planner('recorded'),
      input: 'Research and save.',
      mode: 'record',
      report: false,
      // The planner's model and the worker's share one script, in the order they are asked.
      transport: () =>
        new ScriptedTransport(() => {
          model++;
          if (model === 1) return reply.toolUse('ask_worker', { request: 'Do it.' });
          if (model === 2) return reply.toolUses(inner.map((s) => ({ name: s.name, input: { what: 'x' } })));
          return reply.text(model === 3 ? 'Worker done.' : 'Planner done.');
        }),
    });
    ran.length = 0;
    const { result } = await runTrajectory({ file, agent: planner('today'), mode: 'replay', match: 'structure' });
    expect(ran).toEqual(['search_web']);
    expect(result.toolCalls[0]!.subRun!.toolCalls.map((c) => c.output)).toEqual([
      'search_web today: x',
      'save_draft recorded: x',
    ]);
  });
});
