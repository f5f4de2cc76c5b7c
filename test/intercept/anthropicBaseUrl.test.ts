import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { counter } from './capturedConversations.js';
import { useTempDir } from '../support/tempDir.js';
import { capturedResponse, startUpstream } from './upstream.js';
import { createLoop } from './toolLoops.js';

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const captures = counter.captures;

/** A client that, as the SDK does, takes its base URL from ANTHROPIC_BASE_URL when none is given. */
const loop = () =>
  createLoop({
    client: new Anthropic({ apiKey: 'test-key', maxRetries: 0 }),
    baseURL: '(from ANTHROPIC_BASE_URL)',
    apiKey: 'test-key',
    model: 'claude-opus-4-8',
    prompt: counter.prompt,
    tools: [counter.tool],
    run: (name, input) => `${name} called with ${JSON.stringify(input)}`,
  });

describe('interceptAnthropic and ANTHROPIC_BASE_URL', () => {
  it('intercepts the base URL the SDK reads from ANTHROPIC_BASE_URL, with no baseURL option', async () => {
    const upstream = await startUpstream(captures.map(capturedResponse));
    const file = join(tempDir(), 'env.yaml');
    try {
      // Surrounding whitespace and a trailing slash, as the SDK tolerates them.
      vi.stubEnv('ANTHROPIC_BASE_URL', ` ${upstream.url}/ `);
      const recording = await interceptAnthropic({ file, config: false, mode: 'record' });
      const recorded = await loop().finally(() => recording.close());
      expect(upstream.seen).toHaveLength(2);
      expect(loadTrajectory(file).turns).toHaveLength(2);
      await upstream.close();
      // Replayed with the stand-in closed: only interception can answer.
      const replaying = await interceptAnthropic({ file, config: false, mode: 'replay' });
      const replayed = await loop().finally(() => replaying.close());
      expect(replayed).toEqual(recorded);
    } finally {
      await upstream.close().catch(() => {});
    }
  });

  it('ignores an empty ANTHROPIC_BASE_URL, as the SDK does', async () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', '  ');
    const interception = await interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'record' });
    await expect(interception.close()).rejects.toMatchObject({ code: 'nothing_to_record' });
  });

  it('refuses an ANTHROPIC_BASE_URL that is not an http(s) URL, naming the variable', async () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', 'ftp://example.com');
    await expect(
      interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'record' }),
    ).rejects.toMatchObject({
      code: 'invalid_intercept_option',
      message: expect.stringContaining('ANTHROPIC_BASE_URL'),
    });
  });
});
