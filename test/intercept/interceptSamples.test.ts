import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  interceptAnthropic,
  interceptThisTest,
  startRecordingProxy,
  type InterceptBody,
  type SampledInterceptOptions,
} from '../../src/intercept/index.js';
import { testTrajectoryFile } from '../../src/intercept/testTrajectoryFile.js';
import { TrajectoryDivergenceError } from '../../src/replay/divergenceError.js';
import type { SampleOf } from '../../src/replay/sampleRuns.js';
import { SamplesFailedError } from '../../src/replay/samplesFailedError.js';
import type { SampleRule } from '../../src/replay/sampleRule.js';
import { conversationsOf } from '../../src/trajectory/conversationsOf.js';
import { samplesOf } from '../../src/trajectory/samplesOf.js';
import { SecretInTrajectoryError } from '../../src/trajectory/secretScan.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import type { Trajectory } from '../../src/trajectory/types.js';
import { useTempDir } from '../support/tempDir.js';
import { API_KEY, askAccount, PROMPT, startSeededUpstream } from './seededUpstream.js';

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

/** The body's assertion: the code under test looked the account up. */
async function looksUp(baseURL: string, answer = 'open'): Promise<void> {
  const outcome = await askAccount(baseURL, answer);
  if (!outcome.calls.some((call) => call.name === 'lookup')) throw new Error('the code did not look acct-7 up');
}

/**
 * Records `k` samples of the code under test against the seeded stand-in, into a new file; what each sample did
 * (whether it looked up), the `{ sample, of }` each body run was given, and the (closed) stand-in's URL.
 */
async function recordSamples(k: number, seed = 7, options: Partial<SampledInterceptOptions> = {}) {
  const upstream = await startSeededUpstream(seed);
  const file = join(tempDir(), 'accounts.yaml');
  const seen: SampleOf[] = [];
  try {
    const run = await interceptAnthropic(
      { file, config: false, mode: 'record', baseURL: upstream.url, samples: k, ...options },
      async (interception, at) => {
        seen.push(at);
        expect(interception).toEqual({ mode: 'record', file, trajectory: undefined });
        // The file is written once, when every sample has run.
        expect(existsSync(file)).toBe(false);
        await askAccount(upstream.url);
      },
    );
    return { file, run, choices: upstream.choices, seen, requests: upstream.seen.length, url: upstream.url };
  } finally {
    await upstream.close();
  }
}

/** Replays `file` (the stand-in gone: only the recording answers), running `body` on each sample. */
function replay(file: string, url: string, body: InterceptBody, pass?: SampleRule) {
  return interceptAnthropic(
    { file, config: false, mode: 'replay', baseURL: url, ...(pass === undefined ? {} : { pass }) },
    body,
  );
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('interceptAnthropic(options, body): samples at the HTTP boundary', () => {
  it('records k runs of the body into one file, written once at the end, each run a sample of its own', async () => {
    const { file, run, choices, seen, requests } = await recordSamples(5);
    expect(seen).toEqual([1, 2, 3, 4, 5].map((sample) => ({ sample, of: 5 })));
    // The seed gives both behaviours, so the samples differ.
    expect(choices).toHaveLength(5);
    expect(new Set(choices).size).toBe(2);
    expect(requests).toBe(choices.reduce((sum, lookup) => sum + (lookup ? 2 : 1), 0));
    const samples = samplesOf(loadTrajectory(file));
    expect(samples.map((s) => s.turns.length)).toEqual(choices.map((lookup) => (lookup ? 2 : 1)));
    expect(samples.every((s) => s.boundary === 'http' && s.input === PROMPT)).toBe(true);
    expect(run).toMatchObject({ mode: 'record', file, trajectory: loadTrajectory(file) });
    expect(run.samples?.map((s) => s.passed)).toEqual([true, true, true, true, true]);
    // The header is written once; each further sample holds only its run.
    const text = readFileSync(file, 'utf8');
    expect(text.match(/^input:/gm)).toHaveLength(1);
    expect(text.match(/^ {2}- turns:/gm)).toHaveLength(4);
    expect(text).not.toContain(API_KEY);
  });

  it('replays each sample on its own, offline, running the body once per sample', async () => {
    const { file, url, choices } = await recordSamples(5);
    const ran: { at: SampleOf; turns: number; calls: number }[] = [];
    const run = await replay(
      file,
      url,
      async (interception, at) => {
        expect(interception.mode).toBe('replay');
        const outcome = await askAccount(url);
        ran.push({ at, turns: interception.trajectory!.turns.length, calls: outcome.calls.length });
        if (outcome.calls.length === 0) throw new Error('the code did not look acct-7 up');
      },
      { atLeast: choices.filter(Boolean).length },
    );
    // Each run was answered from its own sample: the one that looked up, or the one that did not.
    expect(ran).toEqual(
      choices.map((lookup, i) => ({ at: { sample: i + 1, of: 5 }, turns: lookup ? 2 : 1, calls: lookup ? 1 : 0 })),
    );
    expect(run.mode).toBe('replay');
    expect(run.samples?.map((s) => s.passed)).toEqual(choices);
    expect(run.samples?.map((s) => s.trajectory)).toEqual(samplesOf(loadTrajectory(file)));
  });

  it('fails by default (every sample, pass^k), naming each failed sample, why, and its timeline', async () => {
    const { file, url, choices } = await recordSamples(5);
    const failed = choices.flatMap((lookup, i) => (lookup ? [] : [i + 1]));
    const error = await failure(replay(file, url, () => looksUp(url)));
    expect(error).toBeInstanceOf(SamplesFailedError);
    const { message, samples } = error as SamplesFailedError;
    expect(message).toContain(`${5 - failed.length}/5 samples passed, but the rule is every sample (pass^5)`);
    expect(message).toContain(`samples ${failed.join(', ')} failed`);
    for (const n of failed) expect(message).toContain(`Sample ${n} of 5: the code did not look acct-7 up`);
    expect(message).toContain('Tool calls (as recorded): none (the run stopped with end_turn).');
    expect(samples.filter((s) => !s.passed).map((s) => s.sample)).toEqual(failed);
  });

  it('passes by at least m of k, or by a rate, and fails one below', async () => {
    const { file, url, choices } = await recordSamples(5);
    const passing = choices.filter(Boolean).length;
    const by = (pass: SampleRule) => replay(file, url, () => looksUp(url), pass);
    await expect(by({ atLeast: passing })).resolves.toMatchObject({ mode: 'replay' });
    await expect(by({ atLeast: passing + 1 })).rejects.toBeInstanceOf(SamplesFailedError);
    await expect(by({ rate: passing / 5 })).resolves.toMatchObject({ mode: 'replay' });
    await expect(by({ rate: (passing + 1) / 5 })).rejects.toThrow(`at least ${(passing + 1) * 20}% of 5`);
    await expect(by('all')).rejects.toThrow(`${passing}/5 samples passed`);
  });

  it('fails the samples a code change affects, and only those, with the divergence itself', async () => {
    const { file, url, choices } = await recordSamples(5);
    // Today's lookup answers differently: the samples that looked up now send another tool result.
    const error = await failure(replay(file, url, () => askAccount(url, 'closed')));
    expect(error).toBeInstanceOf(SamplesFailedError);
    const verdicts = (error as SamplesFailedError).samples;
    expect(verdicts.map((v) => v.passed)).toEqual(choices.map((lookup) => !lookup));
    for (const verdict of verdicts.filter((v) => !v.passed)) {
      // Not the client's 400: the divergence that refused its request.
      expect(verdict.error).toBeInstanceOf(TrajectoryDivergenceError);
      expect(verdict.error).toMatchObject({ kind: 'request', turn: 2 });
    }
    expect((error as Error).message).toMatch(
      /Sample \d of 5: the request for turn 2 differs from the recording at messages\[2\]/,
    );
  });

  it('fails a sample whose recorded turns the code no longer asks for', async () => {
    const { file, url, choices } = await recordSamples(5);
    // Today's code asks once and stops: the samples that looked up hold a turn it never asks for.
    const askOnce = async () => {
      const client = new Anthropic({ apiKey: API_KEY, baseURL: url, maxRetries: 0 });
      const tools = [
        {
          name: 'lookup',
          description: 'Looks an account up.',
          input_schema: {
            type: 'object' as const,
            properties: { account: { type: 'string' } },
            required: ['account'],
          },
        },
      ];
      await client.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 1024,
        tools,
        messages: [{ role: 'user', content: PROMPT }],
      });
    };
    const error = await failure(replay(file, url, askOnce));
    const verdicts = (error as SamplesFailedError).samples;
    expect(verdicts.map((v) => v.passed)).toEqual(choices.map((lookup) => !lookup));
    for (const verdict of verdicts.filter((v) => !v.passed))
      expect(verdict.error).toMatchObject({ kind: 'unused_turns' });
  });

  it('refuses a rule no file of these samples could meet, before running the body', async () => {
    const { file, url } = await recordSamples(3);
    let ran = 0;
    const error = await failure(replay(file, url, () => void ran++, { atLeast: 4 }));
    expect(error).toMatchObject({ name: 'UsageError', code: 'invalid_samples' });
    expect((error as Error).message).toContain('holds 3');
    expect(ran).toBe(0);
  });

  it('saves the samples when the rule fails while recording, then throws', async () => {
    const upstream = await startSeededUpstream(7);
    const file = join(tempDir(), 'strict.yaml');
    try {
      const error = await failure(
        interceptAnthropic({ file, config: false, mode: 'record', baseURL: upstream.url, samples: 5 }, () =>
          looksUp(upstream.url),
        ),
      );
      expect(error).toBeInstanceOf(SamplesFailedError);
      expect((error as SamplesFailedError).samples.map((s) => s.passed)).toEqual(upstream.choices);
      expect(samplesOf(loadTrajectory(file))).toHaveLength(5);
    } finally {
      await upstream.close();
    }
  });

  it("replays a file of one sample as it always has: the body's failure or divergence thrown as it is", async () => {
    // Seed 3's first draw looks the account up.
    const { file, url, choices } = await recordSamples(1, 3);
    expect(choices).toEqual([true]);
    expect(readFileSync(file, 'utf8')).not.toMatch(/^samples:/m);
    await expect(replay(file, url, () => looksUp(url))).resolves.toMatchObject({ mode: 'replay' });
    const diverged = await failure(replay(file, url, () => askAccount(url, 'closed')));
    expect(diverged).toBeInstanceOf(TrajectoryDivergenceError);
    const thrown = new Error('an assertion of the body');
    await expect(
      replay(file, url, async () => {
        await askAccount(url);
        throw thrown;
      }),
    ).rejects.toBe(thrown);
  });

  it('redacts every sample alike, so a redacted value may vary from run to run', async () => {
    const upstream = await startSeededUpstream(7);
    const file = join(tempDir(), 'redacted.yaml');
    const redactions = [{ pattern: /request r-\d+/, placeholder: 'request [ID]' }];
    const ask = (url: string, id: number) => askAccount(url, 'open', `${PROMPT} (request r-${id})`);
    try {
      await interceptAnthropic(
        { file, config: false, mode: 'record', baseURL: upstream.url, samples: 3, redactions },
        (_, { sample }) => ask(upstream.url, sample),
      );
    } finally {
      await upstream.close();
    }
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('request [ID]');
    expect(text).not.toMatch(/r-\d/);
    const run = await interceptAnthropic(
      { file, config: false, mode: 'replay', baseURL: upstream.url, redactions },
      () => ask(upstream.url, 99),
    );
    expect(run.samples?.map((s) => s.passed)).toEqual([true, true, true]);
  });

  it('refuses a secret in any sample, writing nothing', async () => {
    const upstream = await startSeededUpstream(7, { text: (run) => (run === 3 ? 'Key: TOPSECRET-42.' : 'Open.') });
    const file = join(tempDir(), 'secret.yaml');
    try {
      const error = await failure(
        interceptAnthropic(
          { file, config: false, mode: 'record', baseURL: upstream.url, samples: 4, secrets: ['TOPSECRET'] },
          () => askAccount(upstream.url),
        ),
      );
      expect(error).toBeInstanceOf(SecretInTrajectoryError);
      expect(existsSync(file)).toBe(false);
    } finally {
      await upstream.close();
    }
  });

  it('leaves the file as it was when a re-recording changes nothing but the time', async () => {
    const first = await recordSamples(4, 11);
    const bytes = readFileSync(first.file, 'utf8');
    const upstream = await startSeededUpstream(11);
    try {
      await interceptAnthropic(
        { file: first.file, config: false, mode: 'record', baseURL: upstream.url, samples: 4 },
        () => askAccount(upstream.url),
      );
    } finally {
      await upstream.close();
    }
    // The same bytes, its recordedAt included: not written again.
    expect(readFileSync(first.file, 'utf8')).toBe(bytes);
  });

  it('puts first in each sample the conversation the header describes, whichever was sent first', async () => {
    const upstream = await startSeededUpstream(7);
    const file = join(tempDir(), 'two.yaml');
    // The code under test holds two conversations, and starts them in another order in each run.
    const body = async (url: string, sample: number) => {
      const other = () => askAccount(url, 'open', 'Say hello.');
      if (sample % 2 === 1) {
        await askAccount(url);
        await other();
      } else {
        await other();
        await askAccount(url);
      }
    };
    try {
      await interceptAnthropic(
        { file, config: false, mode: 'record', baseURL: upstream.url, samples: 4 },
        (_, { sample }) => body(upstream.url, sample),
      );
    } finally {
      await upstream.close();
    }
    const samples = samplesOf(loadTrajectory(file));
    expect(samples.map((s) => conversationsOf(s).map((c) => c.input))).toEqual(
      Array.from({ length: 4 }, () => [PROMPT, 'Say hello.']),
    );
    const run = await interceptAnthropic(
      { file, config: false, mode: 'replay', baseURL: upstream.url },
      (_, { sample }) => body(upstream.url, sample),
    );
    expect(run.samples?.map((s) => s.passed)).toEqual([true, true, true, true]);
  });

  it('refuses samples that do not start alike: they cannot share one header', async () => {
    const upstream = await startSeededUpstream(7);
    const file = join(tempDir(), 'unlike.yaml');
    try {
      const error = await failure(
        interceptAnthropic({ file, config: false, mode: 'record', baseURL: upstream.url, samples: 3 }, (_, at) =>
          askAccount(upstream.url, 'open', at.sample === 2 ? 'Is acct-8 open?' : PROMPT),
        ),
      );
      expect(error).toMatchObject({ name: 'UsageError', code: 'intercept_unsupported' });
      expect((error as Error).message).toContain("its conversation starts as sample 1's first conversation does");
      expect((error as Error).message).toContain('sample 2');
      expect((error as Error).message).toContain('differs at input');
      expect(existsSync(file)).toBe(false);
    } finally {
      await upstream.close();
    }
  });

  it('runs the body once in passthrough, recording nothing', async () => {
    const upstream = await startSeededUpstream(7);
    const file = join(tempDir(), 'passthrough.yaml');
    const seen: SampleOf[] = [];
    try {
      const run = await interceptAnthropic(
        { file, config: false, mode: 'passthrough', baseURL: upstream.url, samples: 5 },
        async (interception, at) => {
          seen.push(at);
          expect(interception.mode).toBe('passthrough');
          await askAccount(upstream.url);
        },
      );
      expect(run).toEqual({ mode: 'passthrough', file, trajectory: undefined });
      expect(seen).toEqual([{ sample: 1, of: 1 }]);
      expect(upstream.choices).toHaveLength(1);
      expect(existsSync(file)).toBe(false);
    } finally {
      await upstream.close();
    }
  });
});

describe('samples without a body', () => {
  it("refuses 'samples' and 'pass', naming the body form", async () => {
    const file = join(tempDir(), 'nobody.yaml');
    for (const options of [{ samples: 3 }, { pass: 'all' as const }, { samples: 3, pass: { atLeast: 2 } }]) {
      const error = await failure(
        interceptAnthropic({ file, config: false, mode: 'record', ...options } as SampledInterceptOptions),
      );
      expect(error).toMatchObject({ name: 'UsageError', code: 'invalid_samples' });
      expect((error as Error).message).toContain('interceptAnthropic(options, async (interception, { sample, of })');
    }
  });

  it('refuses to replay a file of several samples, naming the body form: interceptAnthropic, proxy', async () => {
    const { file, url } = await recordSamples(3);
    const intercepted = await failure(interceptAnthropic({ file, config: false, mode: 'replay', baseURL: url }));
    expect(intercepted).toMatchObject({ name: 'UsageError', code: 'invalid_samples' });
    expect((intercepted as Error).message).toMatch(/accounts\.yaml holds 3 samples/);
    expect((intercepted as Error).message).toContain('interceptThisTest(options, body)');
    const proxied = await failure(startRecordingProxy({ file, config: false, mode: 'replay' }));
    expect(proxied).toMatchObject({ name: 'UsageError', code: 'invalid_samples' });
  });

  it('refuses a body that is not a function', async () => {
    const error = await failure(
      interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false }, 'run' as unknown as InterceptBody),
    );
    expect(error).toMatchObject({ name: 'UsageError', code: 'invalid_intercept_option' });
  });
});

describe('interceptThisTest(options, body)', () => {
  it('records and replays samples in the file named after the test, as without a body', async () => {
    vi.stubEnv('LEGATE_MODE', '');
    const file = testTrajectoryFile(resolve('test/intercept/interceptSamples.test.ts'), [
      'interceptThisTest(options, body)',
      'records and replays samples in the file named after the test, as without a body',
    ]);
    const upstream = await startSeededUpstream(7);
    try {
      const recorded = await interceptThisTest(
        { config: false, mode: 'record', baseURL: upstream.url, samples: 3 },
        () => askAccount(upstream.url),
      );
      expect(recorded.file).toBe(file);
      const trajectory: Trajectory = loadTrajectory(file);
      expect(trajectory.name).toBe(
        'interceptThisTest(options, body) > records and replays samples in the file named after the test, as ' +
          'without a body',
      );
      expect(samplesOf(trajectory)).toHaveLength(3);
      await upstream.close();
      // Called again in the same test once the first has finished: the file is the test's still.
      const replayed = await interceptThisTest({ config: false, mode: 'replay', baseURL: upstream.url }, () =>
        askAccount(upstream.url),
      );
      expect(replayed).toMatchObject({ mode: 'replay', file });
      expect(replayed.samples?.map((s) => s.passed)).toEqual([true, true, true]);
    } finally {
      await upstream.close().catch(() => {});
      rmSync(dirname(dirname(file)), { recursive: true, force: true });
    }
  });
});
