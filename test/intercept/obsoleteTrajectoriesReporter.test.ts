import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtLegate } from '../support/builtPackage.js';
import { childOutput } from '../support/childOutput.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { useTempDir } from '../support/tempDir.js';
import { PROJECT_RUNS_TIMEOUT } from '../support/vitestProject.js';

// legate/vitest/reporter in a project of its own, run by `npx vitest run` as a team runs it: the process's output and
// what is left on disk are the subject. The project's vitest.config.ts is docs/intercept.md's, word for word; its
// node_modules holds vitest and legate (the built package, as installed). LEGATE_MODE=passthrough: each test claims
// its file without recording, so the runs are offline and need no stand-in of the API.

const tempDir = useTempDir();

const config = readmeSnippets(readFileSync('docs/intercept.md', 'utf8')).find(
  ({ name }) => name === 'obsolete-reporter',
)!.code;

/** After a rename: 'answers in kelvin' was 'answers in fahrenheit', whose recording is still there. */
const agentTest = `
import { interceptThisTest } from 'legate/intercept';
import { describe, test } from 'vitest';

describe('weather agent', () => {
  test('answers in celsius', async () => {
    await interceptThisTest();
  });

  test('answers in kelvin', async () => {
    await interceptThisTest();
  });

  test('fails before it records', () => {
    throw new Error('the agent could not start');
  });

  test.fails('refuses without a key', () => {
    throw new Error('no key');
  });
});
`;

/** A test file that does not run whole: its folder is not judged. */
const skippingTest = `
import { interceptThisTest } from 'legate/intercept';
import { test } from 'vitest';

test('answers', async () => {
  await interceptThisTest();
});

test.skip('answers later', async () => {
  await interceptThisTest();
});
`;

const AGENT = 'test/__trajectories__/agent.test.ts';
const SKIPPING = 'test/__trajectories__/skipping.test.ts';
const GONE = 'test/__trajectories__/gone.test.ts';
const RECORDINGS = [
  `${AGENT}/weather-agent__answers-in-celsius.yaml`,
  `${AGENT}/weather-agent__answers-in-fahrenheit.yaml`,
  `${AGENT}/weather-agent__fails-before-it-records.yaml`,
  `${AGENT}/weather-agent__refuses-without-a-key.yaml`,
  `${AGENT}/README.md`,
  `${SKIPPING}/answers.yaml`,
  `${SKIPPING}/answered-once.yaml`,
  `${GONE}/answers.yaml`,
  `${GONE}/asks.yaml`,
];

function writeProject(root: string): void {
  const files = {
    'package.json': JSON.stringify({ name: 'weather', type: 'module', private: true }),
    'vitest.config.ts': config,
    'test/agent.test.ts': agentTest,
    'test/skipping.test.ts': skippingTest,
    ...Object.fromEntries(RECORDINGS.map((path) => [path, 'recorded: true\n'])),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(resolve('node_modules/vitest'), join(root, 'node_modules/vitest'), 'dir');
  symlinkSync(resolve('.'), join(root, 'node_modules/legate'), 'dir');
}

/** `npx vitest run ...args` in `root`, as from a shell (not as a worker of this run), without colour. */
async function vitestRun(root: string, args: string[]): Promise<{ status: number | null; stdout: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: '', LEGATE_MODE: 'passthrough' };
  for (const name of Object.keys(env)) if (name === 'VITEST' || name.startsWith('VITEST_')) delete env[name];
  const vitest = resolve('node_modules/vitest/vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { status, stdout, stderr } = await childOutput(child);
  return { status, stdout: `${stdout}${stderr}` };
}

/** The reporter's lines: each `legate: ...` line and the indented lines under it. */
function legateLines(output: string): string[] {
  const lines: string[] = [];
  let inBlock = false;
  for (const line of output.split('\n')) {
    inBlock = line.startsWith('legate: ') || (inBlock && line.startsWith('  '));
    if (inBlock) lines.push(line);
  }
  return lines;
}

/** The files under the project's test/, relative to the project. */
function testTree(root: string): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe('legate/vitest/reporter in a project run by npx vitest run', () => {
  it(
    'reports a renamed test’s and a deleted test file’s recordings, not under -t, and removes them under -u only',
    async () => {
      await builtLegate(); // the project imports legate as installed: the built package
      const root = tempDir();
      writeProject(root);
      const written = testTree(root);

      // A test renamed, a test file deleted: their recordings are reported, with how to remove them; nothing else is
      // (the files of the failing test and of the test.fails one are kept: each may have thrown before it recorded;
      // the skipping file's folder is not judged).
      const plain = await vitestRun(root, []);
      expect(legateLines(plain.stdout), plain.stdout).toEqual([
        'legate: 3 obsolete trajectory files (no test records to them; vitest -u removes them):',
        `  ${AGENT}/weather-agent__answers-in-fahrenheit.yaml`,
        `  ${GONE}/answers.yaml (test/gone.test.ts is gone)`,
        `  ${GONE}/asks.yaml (test/gone.test.ts is gone)`,
      ]);
      expect(plain.status, plain.stdout).toBe(1); // the failing test's, not the obsolete files'
      expect(testTree(root)).toEqual(written);

      // Filtered by name: the run cannot tell, so nothing is reported, and nothing removed under -u.
      const filtered = await vitestRun(root, ['-u', '-t', 'celsius']);
      expect(filtered.stdout).toMatch(/Tests {2}1 passed \| 5 skipped/);
      expect(legateLines(filtered.stdout), filtered.stdout).toEqual([]);
      expect(testTree(root)).toEqual(written);

      // A test file that fails to load: which tests exist is not known, so nothing is removed under -u.
      writeFileSync(join(root, 'test/broken.test.ts'), "import './missing.js';\n");
      const broken = await vitestRun(root, ['-u']);
      expect(broken.stdout).toMatch(/Failed to load|Cannot find module|missing\.js/);
      expect(legateLines(broken.stdout), broken.stdout).toEqual([]);
      rmSync(join(root, 'test/broken.test.ts'));
      expect(testTree(root)).toEqual(written);

      // -u: removed, and the deleted test file's folder with them; the rest stays.
      const updated = await vitestRun(root, ['-u']);
      expect(legateLines(updated.stdout), updated.stdout).toEqual([
        'legate: 3 obsolete trajectory files removed (no test records to them):',
        `  ${AGENT}/weather-agent__answers-in-fahrenheit.yaml`,
        `  ${GONE}/answers.yaml (test/gone.test.ts is gone)`,
        `  ${GONE}/asks.yaml (test/gone.test.ts is gone)`,
        `  and the folders left empty: ${GONE}`,
      ]);
      expect(testTree(root)).toEqual(
        written.filter((path) => !path.endsWith('fahrenheit.yaml') && !path.startsWith(GONE)),
      );
    },
    4 * PROJECT_RUNS_TIMEOUT,
  );
});
