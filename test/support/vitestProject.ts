import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createVitest } from 'vitest/node';

/**
 * A hang guard, not a speed check: a test that runs a project's vitest often imports legate afresh each time. It is
 * the project's own tests' guard too: vitest's default (5 s a test) is a speed check on a loaded machine.
 */
export const PROJECT_RUNS_TIMEOUT = 120_000;

/** What one vitest run of a project did: each test's full name and state, and every error's message. */
export interface VitestRun {
  tests: { name: string; state: string }[];
  failures: string[];
}

/**
 * A project in `root` as a user has one: the given files written, and `node_modules` linked to this
 * repository's, so its tests import vitest, msw and the SDK as an installed project does.
 */
export function writeProject(root: string, files: Record<string, string>): void {
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/**
 * vitest on the project in `root`, in this process, as `npx vitest run` runs it (but for its timeouts, no shorter
 * than the test's own): `run({ update: true })` is `npx vitest run -u`. One instance serves every run, so its
 * transforms are made once; each run's test files start in fresh child processes, which read the environment as it is
 * when the run starts.
 */
export async function openVitest(root: string) {
  const exitCode = process.exitCode;
  const vitest = await createVitest('test', {
    root,
    config: false,
    watch: false,
    reporters: [{}],
    include: ['**/*.test.ts'],
    maxWorkers: 1,
    testTimeout: PROJECT_RUNS_TIMEOUT,
    hookTimeout: PROJECT_RUNS_TIMEOUT,
  });
  return {
    async run(options: { update?: boolean } = {}): Promise<VitestRun> {
      if (options.update === true) vitest.enableSnapshotUpdate();
      else vitest.resetSnapshotUpdate();
      const result = await vitest.runTestSpecifications(await vitest.globTestSpecifications(), true);
      const run: VitestRun = { tests: [], failures: result.unhandledErrors.map(String) };
      for (const module of result.testModules) {
        for (const error of module.errors()) run.failures.push(error.message);
        for (const test of module.children.allTests()) {
          const outcome = test.result();
          run.tests.push({ name: test.fullName, state: outcome.state });
          for (const error of outcome.errors ?? []) run.failures.push(error.message);
        }
      }
      return run;
    },
    async close() {
      await vitest.close();
      process.exitCode = exitCode;
    },
  };
}
