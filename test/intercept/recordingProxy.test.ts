import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startRecordingProxy, type RecordingProxyOptions } from '../../src/intercept/index.js';
import { TrajectoryDivergenceError } from '../../src/replay/divergenceError.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { useTempDir } from '../support/tempDir.js';
import { counter, setupFor, weather } from './capturedConversations.js';
import { createLoop, streamLoop, streamTextLoop, toolRunnerLoop, type LoopOutcome } from './toolLoops.js';
import { startScripted } from './scriptedUpstream.js';
import { capturedResponse, startUpstream } from './upstream.js';

const tempDir = useTempDir();

/** Agents of each kind, in this process but reaching the API only over HTTP, through the proxy's URL. */
const flavours = [
  { name: 'a raw loop over client.messages.create', loop: createLoop, ...counter },
  { name: 'a raw loop over client.messages.stream', loop: streamLoop, ...weather },
  { name: "the SDK's tool runner (a server-held thread)", loop: toolRunnerLoop, ...counter },
  { name: "the Vercel AI SDK's streamText (base URL ending in /v1)", loop: streamTextLoop, ...weather },
] as const;

type Flavour = (typeof flavours)[number];

/** Runs a loop against a proxy started with these options; its outcome, and the proxy once closed. */
async function throughProxy(flavour: Flavour, options: RecordingProxyOptions, prompt = flavour.prompt) {
  const proxy = await startRecordingProxy({ config: false, ...options });
  let outcome: LoopOutcome | Error;
  try {
    outcome = await flavour.loop(setupFor(flavour, proxy.url, { prompt })).catch((error: Error) => error);
  } finally {
    await proxy.close().catch((error: unknown) => {
      outcome = error as Error;
    });
  }
  return { outcome: outcome!, proxy };
}

describe('the recording proxy', () => {
  it.each(flavours)(
    'records $name, replays it with the API gone, and re-records it to the same bytes',
    async (flavour) => {
      const file = join(tempDir(), 'run.yaml');
      const upstream = await startUpstream(flavour.captures.map(capturedResponse));
      const recorded = await throughProxy(flavour, { file, mode: 'record', upstream: upstream.url }).finally(
        upstream.close,
      );
      expect(recorded.outcome).not.toBeInstanceOf(Error);
      expect(upstream.seen).toHaveLength(2);
      const bytes = readFileSync(file, 'utf8');
      const trajectory = loadTrajectory(file);
      expect(trajectory).toMatchObject({ boundary: 'http', normalised: ['cacheControl', 'userId'] });
      // Who sent it, as its requests say: never legate's own SDK version.
      expect(trajectory.sdk).toBeUndefined();
      expect(trajectory.client?.userAgent).toMatch(/\S/);

      const replayed = await throughProxy(flavour, { file, mode: 'replay' });
      expect(replayed.outcome).toEqual(recorded.outcome);

      const again = await startUpstream(flavour.captures.map(capturedResponse));
      await throughProxy(flavour, { file, mode: 'record', upstream: again.url }).finally(again.close);
      expect(readFileSync(file, 'utf8')).toBe(bytes);
    },
  );

  it('refuses a request that differs with a 400 not retried, and close() throws the divergence', async () => {
    const file = join(tempDir(), 'run.yaml');
    const upstream = await startUpstream(counter.captures.map(capturedResponse));
    await throughProxy(flavours[0], { file, mode: 'record', upstream: upstream.url }).finally(upstream.close);
    const proxy = await startRecordingProxy({ file, mode: 'replay', config: false });
    const sent: number[] = [];
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-opus-4-8', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    sent.push(response.status);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-should-retry')).toBe('false');
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(/offers the tools differently from the recording/),
    });
    expect(proxy.failure).toBeInstanceOf(TrajectoryDivergenceError);
    await expect(proxy.close()).rejects.toBe(proxy.failure);
  });

  it("answers Claude Code's probe itself; in a replay refuses any other request with a 404 not retried", async () => {
    const file = join(tempDir(), 'run.yaml');
    const upstream = await startUpstream(counter.captures.map(capturedResponse));
    await throughProxy(flavours[0], { file, mode: 'record', upstream: upstream.url }).finally(upstream.close);
    const proxy = await startRecordingProxy({ file, mode: 'replay', config: false });
    try {
      expect((await fetch(`${proxy.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
      const models = await fetch(`${proxy.url}/v1/models`);
      expect(models.status).toBe(404);
      expect(models.headers.get('x-should-retry')).toBe('false');
      expect(((await models.json()) as { error: { message: string } }).error.message).toMatch(
        /replays POST \/v1\/messages only[\s\S]*GET \/v1\/models/,
      );
      // Every recorded turn is still served afterwards.
      expect((await flavours[0].loop(setupFor(counter, proxy.url))).calls).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it("gives a replay's client a key shaped as an API key, whatever key is set, as Claude Code reads it", async () => {
    const file = join(tempDir(), 'run.yaml');
    const upstream = await startUpstream(counter.captures.map(capturedResponse));
    await throughProxy(flavours[0], { file, mode: 'record', upstream: upstream.url }).finally(upstream.close);
    try {
      for (const key of ['', 'unused']) {
        vi.stubEnv('ANTHROPIC_API_KEY', key);
        const proxy = await startRecordingProxy({ file, mode: 'replay', config: false });
        await proxy.close().catch(() => {});
        // Claude Code 2.1.334 titles the session with a small model for an `sk-ant-api03-` key, else the main one.
        expect(proxy.env.ANTHROPIC_API_KEY).toMatch(/^sk-ant-api03-legate/);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says where to point the client when no Messages API request reached it', async () => {
    const proxy = await startRecordingProxy({ file: join(tempDir(), 'run.yaml'), mode: 'record', config: false });
    await fetch(`${proxy.url}/api/hello`);
    await expect(proxy.close()).rejects.toMatchObject({
      code: 'nothing_to_record',
      message: expect.stringContaining(`ANTHROPIC_BASE_URL=${proxy.url}`),
    });
    expect(proxy.env).toMatchObject({ ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_API_URL: proxy.url });
  });

  it('refuses an upstream that is not an http(s) URL, before listening', async () => {
    await expect(
      startRecordingProxy({ file: join(tempDir(), 'run.yaml'), mode: 'record', config: false, upstream: 'ftp://x' }),
    ).rejects.toMatchObject({
      code: 'invalid_intercept_option',
      message:
        "The recording proxy's upstream must be an http(s) URL such as 'http://127.0.0.1:8080', " +
        'but it was "ftp://x".',
    });
  });

  it('answers a body not JSON: a 400 not retried in a replay; sent on unrecorded when recording', async () => {
    const file = join(tempDir(), 'run.yaml');
    const upstream = await startUpstream(counter.captures.map(capturedResponse));
    await throughProxy(flavours[0], { file, mode: 'record', upstream: upstream.url }).finally(upstream.close);
    const replay = await startRecordingProxy({ file, mode: 'replay', config: false });
    const refused = await fetch(`${replay.url}/v1/messages`, { method: 'POST', body: 'not json' });
    expect([refused.status, refused.headers.get('x-should-retry')]).toEqual([400, 'false']);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/not JSON/);
    await replay.close().catch(() => {});

    const api = await startScripted([]);
    const recording = await startRecordingProxy({ file: join(tempDir(), 'x.yaml'), mode: 'record', upstream: api.url });
    const passed = await fetch(`${recording.url}/v1/messages`, { method: 'POST', body: 'not json' });
    // The stand-in's own answer to what it cannot read, handed back as it came.
    expect(passed.status).toBe(500);
    await expect(recording.close()).rejects.toMatchObject({ code: 'nothing_to_record' });
    await api.close();
  });
});
