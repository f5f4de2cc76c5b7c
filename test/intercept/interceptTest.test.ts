import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { interceptThisTest } from '../../src/intercept/index.js';
import {
  isTrajectoryFileName,
  testTrajectoryFile,
  trajectoryFileName,
} from '../../src/intercept/testTrajectoryFile.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { builtLegate } from '../support/builtPackage.js';
import { useTempDir } from '../support/tempDir.js';
import { openVitest, PROJECT_RUNS_TIMEOUT, writeProject, type VitestRun } from '../support/vitestProject.js';
import { capturedResponse, startUpstream, type CapturedResponse } from './upstream.js';

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

describe('trajectoryFileName: the file a test records to', () => {
  it('keeps plain titles as they are and adds a digest to any other', () => {
    expect(trajectoryFileName(['weather agent', 'answers in celsius'])).toBe('weather-agent__answers-in-celsius');
    expect(trajectoryFileName(['answers 2 questions'])).toBe('answers-2-questions');
    expect(trajectoryFileName(['Weather agent', "answers 'SF?'"])).toMatch(/^weather-agent__answers-sf\.[0-9a-f]{8}$/);
    expect(trajectoryFileName([''])).toMatch(/^unnamed\.[0-9a-f]{8}$/);
    expect(trajectoryFileName(['con'])).toMatch(/^_con\.[0-9a-f]{8}$/);
    expect(trajectoryFileName(['a'.repeat(200)])).toMatch(/^a{80}\.[0-9a-f]{8}$/);
    const file = testTrajectoryFile('/project/test/agent.test.ts', ['weather agent', 'answers']);
    expect(file).toBe(resolve('/project/test/__trajectories__/agent.test.ts/weather-agent__answers.yaml'));
  });

  // Titles that differ only in what the rule replaces (case, punctuation, spaces, separators) are the risk.
  const title = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'aA1 -_.>/\\:?é\u0000') }),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', 'con', 'nul', 'a b', 'a  b', 'a-b', 'a_b', 'a__b', ' a', 'a '),
  );
  const titles = fc.array(title, { minLength: 1, maxLength: 4 });
  /** Short titles over a few characters, many pairs of which a weaker rule would confuse. */
  const nearTitles = fc.oneof(
    fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'A', '-', '_', '.'), maxLength: 4 }), {
      minLength: 1,
      maxLength: 3,
    }),
    // Plain titles only: the same words grouped into titles differently.
    fc.array(
      fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
  );

  it('is always one safe file name inside __trajectories__/<test file>/ (property)', () => {
    fc.assert(
      fc.property(titles, (names) => {
        const name = trajectoryFileName(names);
        expect(name).toMatch(/^[a-z0-9_-]+(\.[0-9a-f]{8})?$/);
        expect(name.length).toBeLessThanOrEqual(89);
        expect(name).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/);
        const folder = join('/project', 'test', '__trajectories__', 'agent.test.ts');
        const file = testTrajectoryFile('/project/test/agent.test.ts', names);
        expect(relative(folder, file)).toBe(`${name}.yaml`);
        // So the obsolete-trajectories reporter judges every file interceptThisTest writes.
        expect(isTrajectoryFileName(`${name}.yaml`)).toBe(true);
        expect(relative(folder, file).includes(sep)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('gives distinct titles distinct files, also on a case-insensitive file system (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(nearTitles, titles), {
          minLength: 2,
          maxLength: 30,
          selector: (t) => JSON.stringify(t),
        }),
        (all) => {
          const names = all.map((names) => trajectoryFileName(names).toLowerCase());
          expect(new Set(names).size).toBe(all.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('interceptThisTest outside a running test', () => {
  let refusal: unknown;
  beforeAll(async () => {
    refusal = await interceptThisTest({ config: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
  });

  it('refuses with not_in_a_test, saying where to call it', () => {
    expect(refusal).toMatchObject({ name: 'UsageError', code: 'not_in_a_test' });
    expect((refusal as Error).message).toMatch(/inside the test/);
  });
});

const captures = ['anthropic-sdk-ts--parallel-tool-use.json', 'anthropic-sdk-ts--parallel-tool-use-followup.json'];

/** A project whose tests run a raw-SDK tool loop under interceptThisTest; each writes what it saw to OUTCOME_DIR. */
const agentTest = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, test } from 'vitest';
import { interceptThisTest } from ${JSON.stringify(resolve('dist/src/intercept/index.js'))};
import { createLoop } from ${JSON.stringify(resolve('test/intercept/toolLoops.ts'))};

const PROMPT = 'Use the test_tool with count 1, then use it again with count 2';
const ask = (prompt: string) =>
  createLoop({
    // No baseURL: the SDK reads ANTHROPIC_BASE_URL, which interception follows.
    client: new Anthropic({ apiKey: 'test-key', maxRetries: 0 }),
    model: 'claude-opus-4-8',
    prompt,
    tools: [{
      name: 'test_tool',
      description: 'A test tool',
      input_schema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
    }],
    run: (name, input) => name + ' called with ' + JSON.stringify(input),
  });
const keep = (name: string, interception: { mode: string; file: string }, outcome: unknown) =>
  writeFileSync(
    join(process.env.OUTCOME_DIR!, name + '.json'),
    JSON.stringify({ mode: interception.mode, file: interception.file, outcome }),
  );

describe('weather agent', () => {
  test('answers with the tool', async () => {
    const interception = await interceptThisTest({ config: false });
    keep('answers', interception, await ask(PROMPT));
  });

  test('answers the prompt of the day', async () => {
    const interception = await interceptThisTest({ config: false });
    keep('prompt', interception, await ask(PROMPT + (process.env.PROMPT_SUFFIX ?? '')));
  });

  test('asks nothing', async () => {
    await interceptThisTest({ config: false });
  });
});
`;

/** The second capture with its text prefixed with `Changed: `. */
function changedAnswer(): CapturedResponse {
  const response = capturedResponse(captures[1]!) as { status: number; body: { content: { text?: string }[] } };
  const body = structuredClone(response.body);
  const text = body.content.find((block) => block.text !== undefined)!;
  text.text = `Changed: ${text.text}`;
  return { status: response.status, body };
}

describe('interceptThisTest in a vitest run', () => {
  it(
    'records under the test name, replays offline, fails on a divergence, and re-records under -u',
    async () => {
      const root = tempDir();
      await builtLegate(); // the project imports legate as installed: the built package
      writeProject(root, { 'test/agent.test.ts': agentTest });
      const folder = join(root, 'test', '__trajectories__', 'agent.test.ts');
      const answers = join(folder, 'weather-agent__answers-with-the-tool.yaml');
      const ofTheDay = join(folder, 'weather-agent__answers-the-prompt-of-the-day.yaml');
      const outcome = (name: string) => JSON.parse(readFileSync(join(root, `${name}.json`), 'utf8'));
      const responses: CapturedResponse[] = [];
      const upstream = await startUpstream(responses);
      for (const [name, value] of Object.entries({ CI: '', LEGATE_MODE: '', PROMPT_SUFFIX: '', OUTCOME_DIR: root }))
        vi.stubEnv(name, value);
      vi.stubEnv('ANTHROPIC_BASE_URL', upstream.url);
      const vitest = await openVitest(root);
      try {
        const states = (run: VitestRun) => Object.fromEntries(run.tests.map((test) => [test.name, test.state]));

        // First run: no files yet, so each test records (auto), to the file named after it.
        responses.push(...captures.map(capturedResponse), ...captures.map(capturedResponse));
        const first = await vitest.run();
        expect(states(first)).toEqual({
          'weather agent > answers with the tool': 'passed',
          'weather agent > answers the prompt of the day': 'passed',
          // Nothing was asked: the close interceptThisTest registered fails the test, though it calls no close().
          'weather agent > asks nothing': 'failed',
        });
        expect(first.failures).toEqual([expect.stringMatching(/No Messages API request was intercepted/)]);
        expect(upstream.seen).toHaveLength(4);
        expect(outcome('answers')).toMatchObject({ mode: 'record', file: answers });
        expect(loadTrajectory(answers)).toMatchObject({
          name: 'weather agent > answers with the tool',
          boundary: 'http',
        });
        const recorded = outcome('answers');
        const bytes = readFileSync(ofTheDay, 'utf8');

        // Second run: the files exist, so they replay, offline; a changed prompt fails its test with the divergence.
        vi.stubEnv('PROMPT_SUFFIX', '!');
        const second = await vitest.run();
        expect(states(second)['weather agent > answers with the tool']).toBe('passed');
        expect(outcome('answers')).toEqual({ ...recorded, mode: 'replay' });
        expect(states(second)['weather agent > answers the prompt of the day']).toBe('failed');
        expect(second.failures.join('\n')).toMatch(/differs from the recording[\s\S]*messages\[0\]\.content/);
        // The advice re-records as a snapshot is updated (the test file as seen from the working folder).
        expect(second.failures.join('\n')).toMatch(
          /re-record the trajectory: npx vitest run \S*\/test\/agent\.test\.ts -u/,
        );
        expect(upstream.seen).toHaveLength(4);
        expect(readFileSync(ofTheDay, 'utf8')).toBe(bytes);

        // -u: every test records afresh, live, though its file exists.
        vi.stubEnv('PROMPT_SUFFIX', '');
        responses.push(capturedResponse(captures[0]!), changedAnswer(), ...captures.map(capturedResponse));
        const updated = await vitest.run({ update: true });
        expect(states(updated)['weather agent > answers with the tool']).toBe('passed');
        expect(outcome('answers').mode).toBe('record');
        expect(outcome('answers').outcome.text).toMatch(/^Changed: /);
        expect(readFileSync(answers, 'utf8')).toContain('Changed: ');
        expect(upstream.seen).toHaveLength(8);
        expect(readFileSync(ofTheDay, 'utf8')).toBe(bytes);
      } finally {
        await vitest.close();
        await upstream.close();
      }
    },
    PROJECT_RUNS_TIMEOUT,
  );
});

describe('interceptThisTest, one file per test', () => {
  // LEGATE_MODE=passthrough: nothing is intercepted or written, only the file is claimed.
  beforeEach(() => vi.stubEnv('LEGATE_MODE', 'passthrough'));

  it('refuses a second interception in a test while the first is open, and allows it once closed', async () => {
    const first = await interceptThisTest({ config: false });
    await expect(interceptThisTest({ config: false })).rejects.toMatchObject({
      name: 'UsageError',
      code: 'trajectory_file_in_use',
      message: expect.stringContaining('already called in this test'),
    });
    await first.close();
    await expect(interceptThisTest({ config: false })).resolves.toMatchObject({ mode: 'passthrough' });
  });

  const twins: unknown[] = [];
  for (let twin = 0; twin < 2; twin++)
    it('has a twin', async () => {
      twins.push(
        await interceptThisTest({ config: false }).then(
          (interception) => interception.mode,
          (error) => error,
        ),
      );
      if (twins.length < 2) return;
      expect(twins[0]).toBe('passthrough');
      expect(twins[1]).toMatchObject({
        code: 'trajectory_file_in_use',
        message: expect.stringContaining('has a twin'),
      });
    });
});

describe('interceptThisTest, closed by the test itself', () => {
  it('leaves the outcome of a close() the test awaited to the test', async () => {
    // Recording, with no request made: close() throws nothing_to_record and writes nothing.
    vi.stubEnv('LEGATE_MODE', 'record');
    const interception = await interceptThisTest({ config: false });
    await expect(interception.close()).rejects.toMatchObject({ code: 'nothing_to_record' });
    await expect(interception.close()).rejects.toMatchObject({ code: 'nothing_to_record' });
  });
});
