import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { capturedResponse, startUpstream } from '../intercept/upstream.js';
import { builtLegate } from '../support/builtPackage.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { useTempDir } from '../support/tempDir.js';
import { openVitest, PROJECT_RUNS_TIMEOUT, writeProject } from '../support/vitestProject.js';

// docs/intercept.md, "Adopt it in five minutes", run as a team would: its test file, word for word (but
// for where 'legate/intercept' is imported from: the built package), in a project of its own whose existing agent
// is a raw-SDK tool loop; recorded once with a key against a local stand-in of the API, then replayed as CI does, with
// the stand-in closed. `npm install` cannot run offline: its command is checked against package.json.

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const doc = readFileSync('docs/intercept.md', 'utf8');
const start = doc.indexOf('## Adopt it in five minutes');
const adopt = doc.slice(start, doc.indexOf('\n## ', start + 1));
const API_KEY = `sk-ant-api03-${'K9'.repeat(40)}-AA`;

/** The team's agent as it was before legate: a tool loop over `client.messages.stream`, the one the captures answer. */
const agent = `
import type Anthropic from '@anthropic-ai/sdk';
import { streamLoop } from ${JSON.stringify(resolve('test/intercept/toolLoops.ts'))};
import { weatherTool as getWeather } from ${JSON.stringify(resolve('test/intercept/capturedConversations.ts'))};

export async function myExistingAgent(client: Anthropic, question: string): Promise<string> {
  const weather = (input: unknown) =>
    JSON.stringify({ location: (input as { location: string }).location, temperature: '68°F', condition: 'Sunny' });
  const outcome = await streamLoop({
    client,
    model: 'claude-haiku-4-5',
    prompt: question,
    tools: [getWeather],
    run: (_, input) => weather(input),
  });
  return outcome.text;
}
`;

/** The variables the doc's CI command sets (`CI=true ANTHROPIC_API_KEY=unused npx vitest run`); no others. */
function ciEnvironment(): Record<string, string> {
  const command = /<!-- checked: adopt-ci -->\n\s*```sh\n\s*(.+)\n/.exec(adopt)?.[1];
  const [, assignments] = /^((?:\w+=\S+ )*)npx vitest run$/.exec(command ?? '') ?? [];
  if (assignments === undefined)
    throw new Error(`The doc's CI command is not 'VAR=value ... npx vitest run': ${command}`);
  return Object.fromEntries(
    assignments
      .trim()
      .split(' ')
      .map((assignment) => assignment.split('=') as [string, string]),
  );
}

describe('docs/intercept.md, "Adopt it in five minutes"', () => {
  it('installs msw within the peer range package.json declares', () => {
    const install = /<!-- checked: adopt-install -->\n\s*```sh\n\s*(.+)\n/.exec(adopt)?.[1];
    const { peerDependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(install).toBe(`npm install --save-dev legate msw@${peerDependencies.msw}`);
  });

  it(
    'records the test once with a key, then replays it offline under CI, from the file the doc names',
    async () => {
      const snippet = readmeSnippets(doc).find((snippet) => snippet.name === 'adopt-test')?.code;
      expect(snippet).toBeDefined();
      const testFile = /^\/\/ (test\/\S+\.test\.ts)\n/.exec(snippet!)![1]!;
      const recording = /`(test\/__trajectories__\/\S+\.yaml)`/.exec(adopt)![1]!;
      expect(adopt).toContain(`npx vitest run ${testFile}`);
      expect(snippet).toContain("from 'legate/intercept'");

      const root = tempDir();
      await builtLegate(); // the project imports legate as installed: the built package
      writeProject(root, {
        'src/agent.ts': agent,
        [testFile]: snippet!.replace("'legate/intercept'", JSON.stringify(resolve('dist/src/intercept/index.js'))),
      });
      const captures = ['anthropic-sdk-py--tool-use.sse.json', 'anthropic-sdk-py--tool-use-followup.sse.json'];
      const upstream = await startUpstream(captures.map(capturedResponse));
      expect(ciEnvironment()).toHaveProperty('CI');
      for (const [name, value] of Object.entries({ CI: '', LEGATE_MODE: '', ANTHROPIC_API_KEY: API_KEY }))
        vi.stubEnv(name, value);
      // The stand-in of the API, where the SDK sends when no baseURL is given to it.
      vi.stubEnv('ANTHROPIC_BASE_URL', upstream.url);
      const cwd = process.cwd();
      // The project's tests run from its root, as `npx vitest run` in it does.
      process.chdir(root);
      const vitest = await openVitest(root);
      try {
        // Step 3: run once with a key: it records.
        const recorded = await vitest.run();
        expect(recorded.failures).toEqual([]);
        expect(recorded.tests.map((test) => test.state)).toEqual(['passed']);
        expect(upstream.seen).toHaveLength(2);
        // The key went to the API, not into the file.
        expect(JSON.stringify(upstream.seen[0]!.headers)).toContain(API_KEY);
        const file = join(root, recording);
        expect(loadTrajectory(file).turns).toHaveLength(2);
        expect(readFileSync(file, 'utf8')).not.toContain(API_KEY);

        // Step 5: CI's command, in the environment it sets, with the stand-in closed: the recording alone answers.
        await upstream.close();
        for (const [name, value] of Object.entries(ciEnvironment())) vi.stubEnv(name, value);
        const replayed = await vitest.run();
        expect(replayed.failures).toEqual([]);
        expect(replayed.tests.map((test) => test.state)).toEqual(['passed']);
        expect(upstream.seen).toHaveLength(2);
      } finally {
        process.chdir(cwd);
        await vitest.close();
        await upstream.close().catch(() => {});
      }
    },
    PROJECT_RUNS_TIMEOUT,
  );
});

// docs/intercept.md, "Samples at the boundary": its test file, word for word (but for where 'legate/intercept' is
// imported from), in a project of its own whose agent asks the API once; recorded against a local stand-in whose
// third conversation's answer leaves the city out, then replayed under CI with the stand-in closed.
describe('docs/intercept.md, "Samples at the boundary"', () => {
  const section = doc.slice(doc.indexOf('## Samples at the boundary'), doc.indexOf('## The recording proxy'));

  /** The agent: one question, one answer. */
  const oneQuestion = `
import type Anthropic from '@anthropic-ai/sdk';

export async function myExistingAgent(client: Anthropic, question: string): Promise<string> {
  const response = await client.messages.create({
    model: 'claude-haiku-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: question }],
  });
  return response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}
`;

  it(
    'records 5 samples into the file named after the test, passing 4 of 5, then replays them offline',
    async () => {
      const snippet = readmeSnippets(doc).find((snippet) => snippet.name === 'samples-test')?.code;
      expect(snippet).toBeDefined();
      expect(section).toContain('<!-- tested: samples-test -->');
      const testFile = /^\/\/ (test\/\S+\.test\.ts)\n/.exec(snippet!)![1]!;
      const root = tempDir();
      await builtLegate(); // the project imports legate as installed: the built package
      writeProject(root, {
        'src/agent.ts': oneQuestion,
        [testFile]: snippet!.replace("'legate/intercept'", JSON.stringify(resolve('dist/src/intercept/index.js'))),
      });
      let conversations = 0;
      const upstream = await startUpstream(() => {
        conversations++;
        const text = conversations === 3 ? 'It is sunny.' : 'It is sunny in San Francisco.';
        return {
          status: 200,
          body: {
            id: `msg_${conversations}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [{ type: 'text', text }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 14, output_tokens: 8 },
          },
        };
      });
      for (const [name, value] of Object.entries({ CI: '', LEGATE_MODE: '', ANTHROPIC_API_KEY: API_KEY }))
        vi.stubEnv(name, value);
      vi.stubEnv('ANTHROPIC_BASE_URL', upstream.url);
      const cwd = process.cwd();
      process.chdir(root);
      const vitest = await openVitest(root);
      try {
        const recorded = await vitest.run();
        expect(recorded.failures).toEqual([]);
        expect(recorded.tests.map((test) => test.state)).toEqual(['passed']);
        expect(upstream.seen).toHaveLength(5);
        const file = join(
          root,
          'test/__trajectories__/weather.samples.test.ts/answers-the-weather-in-san-francisco-most-of-the-time.yaml',
        );
        const trajectory = loadTrajectory(file);
        expect(trajectory.samples).toHaveLength(4);
        expect(trajectory.samples![1]!.turns[0]!.response.content).toEqual([{ text: 'It is sunny.' }]);

        await upstream.close();
        for (const [name, value] of Object.entries(ciEnvironment())) vi.stubEnv(name, value);
        const replayed = await vitest.run();
        expect(replayed.failures).toEqual([]);
        expect(replayed.tests.map((test) => test.state)).toEqual(['passed']);
        expect(upstream.seen).toHaveLength(5);
      } finally {
        process.chdir(cwd);
        await vitest.close();
        await upstream.close().catch(() => {});
      }
    },
    PROJECT_RUNS_TIMEOUT,
  );
});
