import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it, vi } from 'vitest';
import { interceptAnthropic, type InterceptOptions } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { TrajectoryDivergenceError } from '../../src/replay/divergenceError.js';
import { useTempDir } from '../support/tempDir.js';
import { capturedResponse, startUpstream, type CapturedResponse } from './upstream.js';
import { API_KEY, counter, setupFor, weather } from './capturedConversations.js';
import {
  createLoop,
  generateTextLoop,
  streamLoop,
  streamTextLoop,
  toolRunnerLoop,
  type LoopOutcome,
  type LoopSetup,
} from './toolLoops.js';

const tempDir = useTempDir();

/** Each kind of agent people write, with the conversation that answers it (JSON or streamed, as it asks). */
const flavours = [
  { name: 'a raw loop over client.messages.create', loop: createLoop, ...counter },
  { name: 'a raw loop over client.messages.stream', loop: streamLoop, ...weather },
  { name: "the SDK's tool runner (a server-held thread)", loop: toolRunnerLoop, ...counter },
  { name: "the Vercel AI SDK's generateText", loop: generateTextLoop, ...counter },
  { name: "the Vercel AI SDK's streamText", loop: streamTextLoop, ...weather },
] as const;

type Flavour = (typeof flavours)[number];

const setupOf = setupFor;

/** Runs the loop under interception; returns its outcome and the file's text. */
async function intercepted(
  flavour: Flavour,
  options: Omit<InterceptOptions, 'file' | 'config'> & { baseURL: string },
  change: Partial<LoopSetup> = {},
): Promise<{ outcome: LoopOutcome; text: string; file: string }> {
  const file = join(tempDir(), 'loop.yaml');
  const interception = await interceptAnthropic({ file, config: false, ...options });
  let outcome: LoopOutcome;
  try {
    outcome = await flavour.loop(setupOf(flavour, options.baseURL, change));
  } finally {
    await interception.close();
  }
  return { outcome, text: readFileSync(file, 'utf8'), file };
}

async function recordWithUpstream(flavour: Flavour, responses = flavour.captures.map(capturedResponse)) {
  const upstream = await startUpstream(responses);
  try {
    const recorded = await intercepted(flavour, { mode: 'record', baseURL: upstream.url });
    return { ...recorded, seen: upstream.seen, baseURL: upstream.url };
  } finally {
    await upstream.close();
  }
}

/** The response with its first text prefixed with `Changed: `. */
function changedText(response: CapturedResponse): CapturedResponse {
  if ('sse' in response)
    return { ...response, sse: response.sse.replace('"text_delta","text":"', '"text_delta","text":"Changed: ') };
  const body = structuredClone(response.body) as { content: { type: string; text?: string }[] };
  const text = body.content.find((block) => block.type === 'text')!;
  text.text = `Changed: ${text.text}`;
  return { ...response, body };
}

describe.each(flavours)('interceptAnthropic over $name', (flavour) => {
  it('records the conversation, then replays it offline with the same final text and tool calls', async () => {
    const recorded = await recordWithUpstream(flavour);
    expect(recorded.seen).toHaveLength(2);
    expect(recorded.outcome.calls.length).toBeGreaterThan(0);
    expect(recorded.outcome.text).not.toBe('');

    const trajectory = loadTrajectory(recorded.file);
    expect(trajectory.boundary).toBe('http');
    expect(trajectory.turns).toHaveLength(2);
    expect(trajectory.turns[0]!.results?.map((r) => r.tool)).toEqual(recorded.outcome.calls.map((c) => c.name));
    expect(trajectory.turns[0]!.events !== undefined).toBe(flavour.captures[0].endsWith('.sse.json'));

    // The upstream is closed: only the recording can answer.
    const replayed = await intercepted(flavour, { mode: 'replay', baseURL: recorded.baseURL });
    expect(replayed.outcome).toEqual(recorded.outcome);
  });

  it('never writes the API key or any request header', async () => {
    const recorded = await recordWithUpstream(flavour);
    // The key did go out, to the upstream (the AI SDK sends it as x-api-key).
    const { authorization, 'x-api-key': apiKey } = recorded.seen[0]!.headers;
    expect([authorization, apiKey]).toContain(authorization === undefined ? API_KEY : `Bearer ${API_KEY}`);
    expect(recorded.text).not.toContain(API_KEY);
    expect(recorded.text).not.toContain('sk-ant-');
    expect(recorded.text.toLowerCase()).not.toMatch(/x-api-key|authorization|anthropic-version/);
  });

  it('re-records an unchanged conversation to the same bytes, and a changed one to new ones', async () => {
    const first = await recordWithUpstream(flavour);
    const again = await recordWithUpstream(flavour);
    expect(again.text).toBe(first.text);
    const [toolUse, answer] = flavour.captures.map(capturedResponse);
    const changed = await recordWithUpstream(flavour, [toolUse!, changedText(answer!)]);
    expect(changed.text).not.toBe(first.text);
    expect(changed.outcome.text).toMatch(/^Changed: /);
  });

  it.each<[string, Partial<LoopSetup>, string, string]>([
    [
      'a changed tool description',
      { tools: [{ ...flavour.tool, description: 'Changed.' }] },
      'tools[0].digest',
      `tool '${flavour.tool.name}' has another description`,
    ],
    ['a changed prompt', { prompt: `${flavour.prompt} Please.` }, 'messages[0].content', 'differs from the recording'],
  ])('refuses %s with the divergence error, without reaching the network', async (_, change, at, words) => {
    const { baseURL } = await recordWithUpstream(flavour);
    const file = join(tempDir(), 'loop.yaml');
    const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL });
    await expect(flavour.loop(setupOf(flavour, baseURL, change))).rejects.toThrow(words);
    const failure = await interception.close().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TrajectoryDivergenceError);
    expect(failure).toMatchObject({ code: 'trajectory_divergence', kind: 'request', turn: 1 });
    expect((failure as TrajectoryDivergenceError).message).toContain(words);
    // The AI SDK sends the prompt as a text block: the difference is inside it.
    expect((failure as TrajectoryDivergenceError).path?.startsWith(at)).toBe(true);
  });
});

describe('interceptAnthropic', () => {
  const flavour = flavours[0];

  it('refuses other hosts in replay unless told to pass them, and names the turns never asked for', async () => {
    const { baseURL } = await recordWithUpstream(flavour);
    const other = await startUpstream([capturedResponse(flavour.captures[1])]);
    const post = () => fetch(`${other.url}/v1/messages`, { method: 'POST', body: '{}' });
    try {
      for (const otherHosts of ['refuse', 'pass'] as const) {
        const file = join(tempDir(), 'loop.yaml');
        const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL, otherHosts });
        if (otherHosts === 'refuse') await expect(post()).rejects.toThrow();
        else expect((await post()).status).toBe(200);
        await expect(interception.close()).rejects.toMatchObject({
          code: 'trajectory_divergence',
          kind: 'unused_turns',
        });
      }
      expect(other.seen).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('applies declared redactions to the file and to each replayed request, and refuses declared secrets', async () => {
    const prompt = `${flavour.prompt} for account ACCT-99812`;
    const upstream = await startUpstream(flavour.captures.map(capturedResponse));
    const redactions = [{ pattern: /ACCT-\d+/ }];
    try {
      const recorded = await intercepted(flavour, { mode: 'record', baseURL: upstream.url, redactions }, { prompt });
      expect(recorded.text).not.toContain('ACCT-99812');
      expect(recorded.text).toContain('for account [REDACTED]');
      const replayed = await intercepted(flavour, { mode: 'replay', baseURL: upstream.url, redactions }, { prompt });
      expect(replayed.outcome).toEqual(recorded.outcome);
      expect(upstream.seen).toHaveLength(2);
    } finally {
      await upstream.close();
    }
    const fresh = await startUpstream(flavour.captures.map(capturedResponse));
    try {
      const file = join(tempDir(), 'secret.yaml');
      const secrets = ['ACCT-99812'];
      const interception = await interceptAnthropic({
        file,
        config: false,
        mode: 'record',
        baseURL: fresh.url,
        secrets,
      });
      await flavour.loop(setupOf(flavour, fresh.url, { prompt })).catch(() => undefined);
      await expect(interception.close()).rejects.toMatchObject({ code: 'secret_in_trajectory' });
      expect(existsSync(file)).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a request past the recording (extra_call), and a stream asked for where JSON was recorded', async () => {
    const { baseURL } = await recordWithUpstream(flavour);
    const file = join(tempDir(), 'loop.yaml');
    const extra = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL });
    const client = new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0 });
    const setup = setupOf(flavour, baseURL, { client });
    await flavour.loop(setup);
    const more = client.messages.create({ model: setup.model, max_tokens: 1, messages: [] });
    await expect(more).rejects.toThrow(/the recording holds 2 responses/);
    await expect(extra.close()).rejects.toMatchObject({ kind: 'extra_call', turn: 3 });

    const streamed = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL });
    await expect(streamLoop(setupOf(flavour, baseURL))).rejects.toThrow(/differs from the recording at stream/);
    await expect(streamed.close()).rejects.toMatchObject({ kind: 'request', turn: 1, path: 'stream', actual: true });
  });

  it('advises re-recording by running the code again in record mode, never through an agent factory', async () => {
    const { baseURL } = await recordWithUpstream(flavour);
    vi.stubEnv('VITEST', ''); // a script, not a test: the advice names no test runner
    try {
      const file = join(tempDir(), 'loop.yaml');
      const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL });
      await expect(flavour.loop(setupOf(flavour, baseURL, { prompt: 'Other.' }))).rejects.toThrow();
      const failure = await interception.close().catch((error: unknown) => error as Error);
      expect(failure?.message).toMatch(/re-record the trajectory: run this program again with LEGATE_MODE=record set$/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('lets LEGATE_MODE win over the mode in code', async () => {
    vi.stubEnv('LEGATE_MODE', 'passthrough');
    try {
      const interception = await interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'replay' });
      expect(interception.mode).toBe('passthrough');
      await interception.close();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('hands a connection failure to the client as one, in record mode', async () => {
    const closed = await startUpstream([]);
    await closed.close();
    const file = join(tempDir(), 'loop.yaml');
    const interception = await interceptAnthropic({ file, config: false, mode: 'record', baseURL: closed.url });
    await expect(flavour.loop(setupOf(flavour, closed.url))).rejects.toThrow(/Connection error/);
    await expect(interception.close()).rejects.toMatchObject({ code: 'nothing_to_record' });
  });

  it('in auto mode records a missing file, then replays it', async () => {
    const upstream = await startUpstream(flavour.captures.map(capturedResponse));
    const file = join(tempDir(), 'auto.yaml');
    const run = async () => {
      const interception = await interceptAnthropic({ file, config: false, mode: 'auto', baseURL: upstream.url });
      const outcome = await flavour.loop(setupOf(flavour, upstream.url));
      await interception.close();
      return { mode: interception.mode, outcome };
    };
    const first = await run();
    await upstream.close();
    const second = await run();
    expect([first.mode, second.mode]).toEqual(['record', 'replay']);
    expect(second.outcome).toEqual(first.outcome);
  });

  it('in replay mode refuses a missing file, saying what recording needs and the command that records it', async () => {
    const file = join(tempDir(), 'absent.yaml');
    const attempt = interceptAnthropic({ file, config: false, mode: 'replay' });
    await expect(attempt).rejects.toMatchObject({
      code: 'trajectory_not_found',
      message: expect.stringMatching(/^.*absent\.yaml does not exist\. .*ANTHROPIC_API_KEY.*ANTHROPIC_BASE_URL.*: \S/),
    });
  });

  it.each([
    [{ baseURL: 'ftp://example.com' }, /must be an http\(s\) URL .* but it was "ftp:\/\/example.com"/],
    [{ otherHosts: 'maybe' as 'pass' }, /otherHosts must be 'refuse' or 'pass', but it was "maybe"/],
  ])('refuses an option it cannot use: %o', async (option, message) => {
    const attempt = interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'replay', ...option });
    await expect(attempt).rejects.toMatchObject({
      code: 'invalid_intercept_option',
      message: expect.stringMatching(message),
    });
  });
});
