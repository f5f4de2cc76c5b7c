import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { conversationsOf } from '../../src/trajectory/conversationsOf.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';
import { API_KEY, answerByTool, counter, setupFor, weather } from './capturedConversations.js';
import {
  createLoop,
  streamLoop,
  streamTextLoop,
  toolRunnerLoop,
  type LoopOutcome,
  type LoopSetup,
} from './toolLoops.js';
import { startUpstream } from './upstream.js';

const tempDir = useTempDir();

type Conversation = typeof counter | typeof weather;
type Agent = (setup: LoopSetup) => Promise<LoopOutcome>;

function setupOf(conversation: Conversation, baseURL: string, client?: Anthropic): LoopSetup {
  return setupFor(conversation, baseURL, client === undefined ? {} : { client });
}

/** Runs the agents under one interception of `file` (all at once, or one after the other); their outcomes. */
async function runAll(
  file: string,
  mode: 'record' | 'replay',
  baseURL: string,
  agents: (() => Promise<LoopOutcome>)[],
  together: boolean,
): Promise<LoopOutcome[]> {
  const interception = await interceptAnthropic({ file, config: false, mode, baseURL });
  const settled: PromiseSettledResult<LoopOutcome>[] = [];
  // Every agent ends before the interception closes, whatever becomes of the others.
  if (together) settled.push(...(await Promise.allSettled(agents.map((agent) => agent()))));
  else for (const agent of agents) settled.push(...(await Promise.allSettled([agent()])));
  await interception.close();
  return settled.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
}

describe('several conversations in one interception', () => {
  it.each([
    ['one after the other', false],
    ['at the same time', true],
  ])('records two clients %s, one file with each conversation, replayed offline', async (_, together) => {
    const file = join(tempDir(), 'two-clients.yaml');
    const upstream = await startUpstream(answerByTool);
    // Two clients: the SDK's own (a raw create loop), and the Vercel AI SDK streaming.
    const agents = (baseURL: string) => [
      () => createLoop(setupOf(counter, baseURL, new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0 }))),
      () => streamTextLoop(setupOf(weather, baseURL)),
    ];
    let recorded: LoopOutcome[];
    try {
      recorded = await runAll(file, 'record', upstream.url, agents(upstream.url), together);
    } finally {
      await upstream.close();
    }
    expect(upstream.seen).toHaveLength(4);
    const trajectory = loadTrajectory(file);
    const conversations = conversationsOf(trajectory);
    expect(conversations.map((c) => c.tools[0]!.name).sort()).toEqual(['get_weather', 'test_tool']);
    expect(conversations.map((c) => c.turns.length)).toEqual([2, 2]);
    const text = readFileSync(file, 'utf8');
    // legate show gives each conversation under its own heading.
    const io = captureIo();
    expect(await main(['show', file], io)).toBe(0);
    const headings = io.stdout
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('── conversation'));
    // Each under the model that answered it (the captures' own).
    expect(headings.map((line) => line.replace(/ · claude-[\w.-]+$/, ''))).toEqual([
      '── conversation 1 of 2',
      '── conversation 2 of 2',
    ]);

    // Replayed with nothing listening, in the other order: each client gets its own conversation.
    const replayed = await runAll(file, 'replay', upstream.url, agents(upstream.url).reverse(), together);
    expect(replayed.reverse()).toEqual(recorded);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('records concurrent requests of one client (one conversation twice), replayed in any order', async () => {
    const file = join(tempDir(), 'concurrent.yaml');
    const upstream = await startUpstream(answerByTool);
    const agents = (baseURL: string): (() => Promise<LoopOutcome>)[] => {
      // One client for all, made once the interception is in force: a client takes `fetch` when it is made.
      let shared: Anthropic | undefined;
      const client = () => (shared ??= new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0 }));
      return (
        [
          [createLoop, counter],
          [streamLoop, weather],
          [createLoop, counter],
          [toolRunnerLoop, counter],
        ] as [Agent, Conversation][]
      ).map(
        ([agent, conversation]) =>
          () =>
            agent(setupOf(conversation, baseURL, client())),
      );
    };
    let recorded: LoopOutcome[];
    try {
      recorded = await runAll(file, 'record', upstream.url, agents(upstream.url), true);
    } finally {
      await upstream.close();
    }
    const trajectory = loadTrajectory(file);
    expect(conversationsOf(trajectory)).toHaveLength(4);
    expect(trajectory.conversations).toHaveLength(3);
    const replayed = await runAll(file, 'replay', upstream.url, agents(upstream.url).reverse(), true);
    expect(replayed.reverse()).toEqual(recorded);
  });

  it('re-records the same conversations sent in another order to the same bytes', async () => {
    const file = join(tempDir(), 'order.yaml');
    const upstream = await startUpstream(answerByTool);
    const agents = [() => createLoop(setupOf(counter, upstream.url)), () => streamLoop(setupOf(weather, upstream.url))];
    try {
      await runAll(file, 'record', upstream.url, agents, false);
      const first = readFileSync(file, 'utf8');
      expect(loadTrajectory(file).tools[0]!.name).toBe('test_tool');
      await runAll(file, 'record', upstream.url, [...agents].reverse(), false);
      expect(readFileSync(file, 'utf8')).toBe(first);
      // Another conversation changes the file; the order is then the order of sending.
      await runAll(file, 'record', upstream.url, [agents[1]!], false);
      expect(conversationsOf(loadTrajectory(file)).map((c) => c.tools[0]!.name)).toEqual(['get_weather']);
      await runAll(file, 'record', upstream.url, [...agents].reverse(), false);
      expect(loadTrajectory(file).tools[0]!.name).toBe('get_weather');
    } finally {
      await upstream.close();
    }
  });

  it('names the conversation a changed request belongs to, and the turns another never asked for', async () => {
    const file = join(tempDir(), 'diverge.yaml');
    const upstream = await startUpstream(answerByTool);
    try {
      await runAll(
        file,
        'record',
        upstream.url,
        [() => createLoop(setupOf(counter, upstream.url)), () => streamLoop(setupOf(weather, upstream.url))],
        false,
      );
    } finally {
      await upstream.close();
    }
    const changed = { ...setupOf(weather, upstream.url), prompt: 'What is the weather in Paris?' };
    const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL: upstream.url });
    await createLoop(setupOf(counter, upstream.url));
    await expect(streamLoop(changed)).rejects.toThrow(/conversation 2 of 2.*\n?.*turn 1 differs/);
    await expect(interception.close()).rejects.toMatchObject({
      kind: 'request',
      turn: 1,
      path: 'messages[0].content',
      actual: 'What is the weather in Paris?',
    });

    const short = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL: upstream.url });
    await streamLoop(setupOf(weather, upstream.url));
    await expect(short.close()).rejects.toMatchObject({ kind: 'unused_turns', file: expect.stringMatching(/1 of 2/) });
  });

  it('names the conversation of the same model when a request differs from every one', async () => {
    // As Claude Code sends its title request (a small model) and its loop: the loop's first request, with a tool
    // changed, is nearer its own conversation than the title's, whichever the file holds first.
    const file = join(tempDir(), 'models.yaml');
    const upstream = await startUpstream(answerByTool);
    try {
      const title = () => createLoop(setupFor(counter, upstream.url, { model: 'claude-haiku-5-5' }));
      await runAll(file, 'record', upstream.url, [title, () => streamLoop(setupOf(weather, upstream.url))], false);
    } finally {
      await upstream.close();
    }
    const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL: upstream.url });
    const changedTool = { ...weather.tool, description: 'Another description.' };
    await expect(streamLoop(setupFor({ ...weather, tool: changedTool }, upstream.url))).rejects.toThrow();
    await expect(interception.close()).rejects.toThrow(
      /conversation 2 of 2[\s\S]*tool 'get_weather' has another description/,
    );
  });
});
