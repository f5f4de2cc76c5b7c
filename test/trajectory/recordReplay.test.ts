import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createCalculator } from '../../examples/calculator/agent.js';
import { createOrderDesk, lookupOrder } from '../../examples/orders/agent.js';
import { scenarios } from '../../examples/scenarios.js';
import {
  Agent,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  parseTrajectory,
  reply,
  runTrajectory,
  serializeTrajectory,
  type AgentFactory,
  type AgentResult,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** What a replay must reproduce of the recorded run. */
function observable(result: AgentResult) {
  return {
    text: result.text,
    stopReason: result.stopReason,
    toolCalls: result.toolCalls,
    usage: result.usage,
    messages: result.messages,
  };
}

async function record(factory: AgentFactory, input: string, model: () => ScriptedTransport, name = 'run.yaml') {
  const file = join(tempDir(), name);
  const run = await runTrajectory({ file, agent: factory, input, mode: 'record', transport: model });
  return { file, run };
}

describe('record, then replay', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))(
    'replays %s to the same result it recorded',
    async (_name, scenario) => {
      const { file, run } = await record(scenario.factory, scenario.input, scenario.model);
      const replayed = await runTrajectory({ file, agent: scenario.factory, mode: 'replay' });
      expect(replayed.mode).toBe('replay');
      expect(observable(replayed.result)).toEqual(observable(run.result));
    },
  );

  it('writes back the same bytes it read', async () => {
    const { file } = await record(createOrderDesk, 'Where is A-1001?', scenarios[0]!.model);
    const text = readFileSync(file, 'utf8');
    expect(serializeTrajectory(parseTrajectory(text, file))).toBe(text);
  });

  it('serves the recorded clock, so a tool sees the time it saw when recorded', async () => {
    const { file, run } = await record(createOrderDesk, 'Where is A-1001?', scenarios[0]!.model);
    const recordedOutput = run.result.toolCalls[0]!.output;
    // The replay runs a day later by the machine's clock (a fake Date: no waiting, and not the same millisecond).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 86_400_000 });
    let replayed: Awaited<ReturnType<typeof runTrajectory>>;
    try {
      replayed = await runTrajectory({ file, agent: createOrderDesk, mode: 'replay' });
    } finally {
      vi.useRealTimers();
    }
    expect(replayed.result.toolCalls[0]!.output).toBe(recordedOutput);
    expect(loadTrajectory(file).clock).toHaveLength(1);
  });

  it('runs the tools for real by default: they are the code under test', async () => {
    const { file } = await record(createOrderDesk, 'Where is A-1001?', scenarios[0]!.model);
    const spy = vi.spyOn(lookupOrder, 'run');
    await runTrajectory({ file, agent: createOrderDesk, mode: 'replay' });
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('can serve recorded tool results instead, per tool, keyed by tool_use id', async () => {
    const { file, run } = await record(createOrderDesk, 'Where is A-1001?', scenarios[0]!.model);
    const spy = vi.spyOn(lookupOrder, 'run');
    const replayed = await runTrajectory({
      file,
      agent: createOrderDesk,
      mode: 'replay',
      runTools: { default: 'all', serve: ['lookup_order'] },
    });
    expect(spy).not.toHaveBeenCalled();
    expect(replayed.result.toolCalls[0]!.output).toEqual(run.result.toolCalls[0]!.output);
    spy.mockRestore();
  });
});

describe('divergence', () => {
  const greet = (output: string) =>
    defineTool({
      name: 'greet',
      description: 'Greets someone.',
      input: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      run: ({ who }) => `${output}, ${who}`,
    });
  const factory =
    (options: { output?: string; system?: string; tools?: boolean; model?: string } = {}): AgentFactory =>
    (transport) =>
      new Agent({
        name: 'greeter',
        model: options.model ?? 'claude-haiku-5-5',
        system: options.system ?? 'Greet people.',
        tools: options.tools === false ? [] : [greet(options.output ?? 'Hello')],
        transport,
      });
  const script = () => new ScriptedTransport([reply.toolUse('greet', { who: 'Ada' }), reply.text('I greeted Ada.')]);

  async function divergence(
    agent: AgentFactory,
    match?: 'exact' | 'structure' | 'shape',
  ): Promise<TrajectoryDivergenceError> {
    const { file } = await record(factory(), 'Greet Ada.', script);
    const error = await runTrajectory({ file, agent, mode: 'replay', ...(match ? { match } : {}) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    return error as TrajectoryDivergenceError;
  }

  it('names the turn and JSON path when a tool now answers differently', async () => {
    const error = await divergence(factory({ output: 'Hi' }));
    expect(error).toMatchObject({
      kind: 'request',
      turn: 2,
      path: 'messages[2].content[0].content',
      expected: 'Hello, Ada',
      actual: 'Hi, Ada',
    });
    expect(error.message).toContain(
      'run.yaml: the request for turn 2 differs from the recording at messages[2].content[0].content.',
    );
    expect(error.message).toContain('re-record the trajectory: LEGATE_MODE=record npx vitest run');
  });

  it('catches a changed system prompt on the first turn', async () => {
    const error = await divergence(factory({ system: 'Greet people warmly.' }));
    expect(error).toMatchObject({ turn: 1, path: 'system', expected: 'Greet people.', actual: 'Greet people warmly.' });
  });

  it('catches a removed tool', async () => {
    const error = await divergence(factory({ tools: false }));
    expect(error).toMatchObject({ turn: 1, path: 'tools[0]' });
    expect(error.actual).toBeUndefined();
  });

  it('has its own message for a changed model', async () => {
    const error = await divergence(factory({ model: 'claude-sonnet-5-5' }));
    expect(error.kind).toBe('model_changed');
    expect(error.message).toContain(
      `the agent now asks for model 'claude-sonnet-5-5', but the recording was made with 'claude-haiku-5-5'`,
    );
  });

  it('has its own message for a model call the recording does not have', async () => {
    const { file } = await record(factory(), 'Greet Ada.', script);
    const trajectory = loadTrajectory(file);
    trajectory.turns.pop(); // the recorded run stopped after the tool call; today's run goes on
    writeFileSync(file, serializeTrajectory(trajectory));
    const error = (await runTrajectory({ file, agent: factory(), mode: 'replay' }).catch(
      (e: unknown) => e,
    )) as TrajectoryDivergenceError;
    expect(error.kind).toBe('extra_call');
    expect(error.message).toContain('the run asked the model a 2nd time, but the recording holds 1 response');
  });

  it('has its own message for recorded turns the run never asked for', async () => {
    const { file } = await record(factory(), 'Greet Ada.', script);
    const trajectory = loadTrajectory(file);
    trajectory.turns.push(structuredClone(trajectory.turns[1]!));
    writeFileSync(file, serializeTrajectory(trajectory));
    const error = (await runTrajectory({ file, agent: factory(), mode: 'replay' }).catch(
      (e: unknown) => e,
    )) as TrajectoryDivergenceError;
    expect(error.kind).toBe('unused_turns');
    expect(error.message).toContain(
      'the run ended after 2 model calls, but the recording holds 3: 1 recorded turn was never asked for',
    );
  });

  it('tolerates changed text at the structure and shape levels, but not a changed tool', async () => {
    const { file } = await record(factory(), 'Greet Ada.', script);
    await expect(
      runTrajectory({ file, agent: factory({ output: 'Hi' }), mode: 'replay', match: 'structure' }),
    ).resolves.toMatchObject({ mode: 'replay' });
    await expect(
      runTrajectory({ file, agent: factory({ system: 'Other.' }), mode: 'replay', match: 'shape' }),
    ).resolves.toMatchObject({ mode: 'replay' });
    const error = await runTrajectory({ file, agent: factory({ tools: false }), mode: 'replay', match: 'shape' }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'request', path: 'tools[0]' });
  });

  it('reports a call the recording never answered as a decision divergence, before it runs', async () => {
    const { file } = await record(factory(), 'Greet Ada.', script);
    const trajectory = loadTrajectory(file);
    delete trajectory.turns[0]!.results;
    writeFileSync(file, serializeTrajectory(trajectory));
    const error = await runTrajectory({ file, agent: factory(), mode: 'replay', runTools: 'none' }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'decision', turn: 1 });
    expect((error as Error).message).toContain('was never answered when recorded; today');
  });
});

describe('the calculator corpus scenario', () => {
  it('records the binder refusal with its structured facts', async () => {
    const scenario = scenarios.find((s) => s.name === 'invalid-argument-corrected')!;
    const { file } = await record(createCalculator, scenario.input, scenario.model);
    expect(loadTrajectory(file).turns[0]!.results).toEqual([
      {
        id: 'toolu_s1_1',
        tool: 'add',
        outcome: 'invalid',
        code: 'invalid_type',
        argument: 'left',
        path: ['left'],
        content: `Tool 'add' argument 'left' must be a whole number, but the value was the string "one".`,
      },
    ]);
  });
});
