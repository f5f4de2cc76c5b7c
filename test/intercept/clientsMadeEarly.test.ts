import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interceptAnthropic, startInterception, stopInterception } from '../../src/intercept/index.js';
import { useTempDir } from '../support/tempDir.js';
import { answerByTool, counter } from './capturedConversations.js';
import { createLoop } from './toolLoops.js';
import { capturedResponse, startUpstream } from './upstream.js';

const tempDir = useTempDir();
const API_KEY = 'sk-ant-api03-test';

afterEach(() => {
  stopInterception();
  vi.restoreAllMocks();
});

/** A raw create loop with a client made by the caller, whenever it was made. */
const run = (client: Anthropic, baseURL: string) =>
  createLoop({
    baseURL,
    apiKey: API_KEY,
    client,
    model: 'claude-opus-4-8',
    prompt: counter.prompt,
    tools: [counter.tool],
    run: (name) => `${name} ran`,
  });

async function recordWith(file: string): Promise<string> {
  const upstream = await startUpstream(counter.captures.map(capturedResponse));
  try {
    const interception = await interceptAnthropic({ file, config: false, mode: 'record', baseURL: upstream.url });
    await run(new Anthropic({ apiKey: API_KEY, baseURL: upstream.url, maxRetries: 0 }), upstream.url);
    await interception.close();
    return upstream.url;
  } finally {
    await upstream.close();
  }
}

describe('a client made before the interception started', () => {
  it('sends its requests around it: the replay says none arrived and why, not to re-record', async () => {
    const file = join(tempDir(), 'early.yaml');
    const baseURL = await recordWith(file);
    const early = new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0 });
    const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL });
    // Around the interception, to the stand-in that is no longer there.
    await expect(run(early, baseURL)).rejects.toThrow(/Connection error/);
    const failure = (await interception.close().catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ kind: 'unused_turns' });
    expect(failure.message).toContain('No request reached the interception. A client takes `fetch` when it is made');
    expect(failure.message).not.toContain('re-record');
  });

  it('is intercepted when startInterception ran first, as a test setup file does', async () => {
    const file = join(tempDir(), 'early.yaml');
    await startInterception();
    const upstream = await startUpstream(answerByTool);
    const early = new Anthropic({ apiKey: API_KEY, baseURL: upstream.url, maxRetries: 0 });
    let recorded: Awaited<ReturnType<typeof run>>;
    try {
      const recording = await interceptAnthropic({ file, config: false, mode: 'record', baseURL: upstream.url });
      recorded = await run(early, upstream.url);
      await recording.close();
      // Between interceptions, requests pass through untouched.
      expect((await run(early, upstream.url)).text).toBe(recorded.text);
    } finally {
      await upstream.close();
    }
    expect(upstream.seen).toHaveLength(4);
    const replay = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL: upstream.url });
    expect(await run(early, upstream.url)).toEqual(recorded);
    await replay.close();
  });
});

describe('interceptions', () => {
  it('are one at a time: a second while the first is in force is refused, and allowed once it closed', async () => {
    const first = await interceptAnthropic({ file: join(tempDir(), 'a.yaml'), config: false, mode: 'record' });
    const second = () => interceptAnthropic({ file: join(tempDir(), 'b.yaml'), config: false, mode: 'record' });
    await expect(second()).rejects.toMatchObject({
      code: 'interception_active',
      message: expect.stringMatching(/An interception of .*a\.yaml is still in force: close it/),
    });
    await expect(first.close()).rejects.toMatchObject({ code: 'nothing_to_record' });
    await expect((await second()).close()).rejects.toMatchObject({ code: 'nothing_to_record' });
  });

  it('name each request to another host a replay refuses', async () => {
    const file = join(tempDir(), 'early.yaml');
    const baseURL = await recordWith(file);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const interception = await interceptAnthropic({ file, config: false, mode: 'replay', baseURL });
    await expect(fetch('http://127.0.0.1:9/elsewhere', { method: 'POST' })).rejects.toThrow();
    await interception.close().catch(() => undefined);
    expect(errors).toHaveBeenCalledWith(
      expect.stringMatching(/^legate\/intercept: refused POST http:\/\/127\.0\.0\.1:9\/elsewhere: a replay lets no/),
    );
  });
});
