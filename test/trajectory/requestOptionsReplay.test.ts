import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentOptions,
  type ScriptStep,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

/** The request options and the `incomplete` outcome, recorded to a trajectory and compared on replay. */

const tempDir = useTempDir();
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  input: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  run: ({ word }) => `${word}: a word`,
});

const options: Partial<AgentOptions> = {
  system: 'Be brief.',
  tools: [lookup, { type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
  toolChoice: { type: 'auto', disableParallelToolUse: true },
  stopSequences: ['END'],
  thinking: { budgetTokens: 2048 },
  cacheControl: { at: 'prefix', ttl: '1h' },
  metadata: { userId: 'u-3f9a' },
  container: 'container_011Caqgq9X3d68B2So2LZGmk',
};
const factory =
  (overrides: Partial<AgentOptions> = {}) =>
  (transport: Transport) =>
    new Agent({ name: 'asker', model: 'claude-sonnet-5-5', transport, ...options, ...overrides });

async function recorded(script: () => ScriptStep[], agent = factory()) {
  const file = join(tempDir(), 'run.yaml');
  await runTrajectory({
    file,
    agent,
    input: 'Define "word".',
    mode: 'record',
    transport: () => new ScriptedTransport(script()),
  });
  return file;
}

describe('request options in a trajectory', () => {
  const script = () => [reply.toolUse('lookup', { word: 'word' }), reply.text('A word.')];

  it('are recorded in the header, server tools by type and name, and a replay of the same agent passes', async () => {
    const file = await recorded(script);
    const trajectory = loadTrajectory(file);
    expect(trajectory.request).toEqual({
      model: 'claude-sonnet-5-5',
      maxTokens: 4096,
      thinking: { budgetTokens: 2048 },
      toolChoice: { type: 'auto', disableParallelToolUse: true },
      stopSequences: ['END'],
      cacheControl: { at: 'prefix', ttl: '1h' },
      metadata: { userId: 'u-3f9a' },
      container: 'container_011Caqgq9X3d68B2So2LZGmk',
      system: 'Be brief.',
    });
    expect(trajectory.tools.map((tool) => [tool.name, tool.type, tool.untrusted])).toEqual([
      ['lookup', undefined, undefined],
      ['web_search', 'web_search_20250305', true],
    ]);
    const replayed = await runTrajectory({ file, agent: factory(), mode: 'replay' });
    expect(replayed.result.text).toBe('A word.');
  });

  it.each([
    ['stopSequences', { stopSequences: ['STOP'] }],
    ['toolChoice', { toolChoice: { type: 'any' } }],
    ['thinking', { thinking: { type: 'adaptive' } }],
    ['cacheControl', { cacheControl: { at: 'auto' } }],
    ['metadata', { metadata: { userId: 'someone-else' } }],
    ['container', { container: 'container_other' }],
  ] as const)('a replay whose agent changed %s diverges there', async (path, changed) => {
    const file = await recorded(script);
    const error = await runTrajectory({ file, agent: factory(changed as Partial<AgentOptions>), mode: 'replay' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    expect((error as TrajectoryDivergenceError).path?.startsWith(path)).toBe(true);
  });
});

describe('an incomplete call in a trajectory', () => {
  const cut = (): ScriptStep[] => [
    {
      content: [
        { type: 'text', text: 'Looking both up.' },
        { type: 'tool_use', id: 'toolu_whole', name: 'lookup', input: { word: 'a' } },
        { type: 'tool_use', id: 'toolu_cut', name: 'lookup', input: {} },
      ],
      stopReason: 'max_tokens',
    },
  ];

  it('is recorded with outcome incomplete, and replays: nothing runs, the same conversation', async () => {
    const run = vi.fn(() => 'x');
    const file = await recorded(cut, factory({ tools: [defineTool({ ...lookupDeclaration, run })] }));
    const turn = loadTrajectory(file).turns[0]!;
    expect(turn.results?.map((r) => [r.id, r.outcome])).toEqual([
      ['toolu_whole', 'incomplete'],
      ['toolu_cut', 'incomplete'],
    ]);
    const replayed = await runTrajectory({
      file,
      agent: factory({ tools: [defineTool({ ...lookupDeclaration, run })] }),
      mode: 'replay',
    });
    expect(run).not.toHaveBeenCalled();
    expect(replayed.result.stopReason).toBe('max_tokens');
    expect(readFileSync(file, 'utf8')).toContain('outcome: incomplete');
  });
});

const lookupDeclaration = {
  name: 'lookup',
  description: 'Looks a word up.',
  input: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
} as const;

describe('the container a response named, in a trajectory', () => {
  const first = () =>
    JSON.parse(readFileSync('test/fixtures/api-captures/anthropic-sdk-py--programmatic-tool-calling-1.json', 'utf8'))
      .response.body;
  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Lookup the weather for a given city.',
    input: { type: 'object', properties: { location: { type: 'string' }, units: { type: 'string' } } },
    run: () => '{"temperature": "20°C"}',
  });
  const weather =
    (extra: Partial<AgentOptions> = {}) =>
    (transport: Transport) =>
      new Agent({ name: 'weather', model: 'claude-opus-4-5', transport, tools: [getWeather], ...extra });

  it('is sent back on the next turn when recorded, and a replay expects it there', async () => {
    const file = join(tempDir(), 'container.yaml');
    await runTrajectory({
      file,
      agent: weather(),
      input: 'What is the weather in SF?',
      mode: 'record',
      transport: () => new ScriptedTransport([first(), reply.text('Sunny.')]),
    });
    expect(loadTrajectory(file).request.container).toBeUndefined();
    const replayed = await runTrajectory({ file, agent: weather(), mode: 'replay' });
    expect(replayed.result.text).toBe('Sunny.');
    // An agent that now sets a container of its own sends another one on turn 2 (and 1): a divergence.
    const error = await runTrajectory({ file, agent: weather({ container: 'container_x' }), mode: 'replay' }).then(
      () => undefined,
      (e: unknown) => e as TrajectoryDivergenceError,
    );
    expect(error?.path).toBe('container');
  });
});
