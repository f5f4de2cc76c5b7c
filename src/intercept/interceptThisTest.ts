import { relative } from 'node:path';
import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';
import { UsageError } from '../errors/UsageError.js';
import { isUpdatingSnapshots } from '../recording/snapshotUpdate.js';
import { markClaimed } from './claimedTrajectory.js';
import {
  interceptAnthropic,
  type InterceptOptions,
  type Interception,
  type SampledInterceptOptions,
} from './interceptAnthropic.js';
import type { InterceptBody, InterceptionRun } from './interceptBody.js';
import { testTrajectoryFile } from './testTrajectoryFile.js';

/** interceptAnthropic's options but `file`, which the test names. */
export type InterceptThisTestOptions = Omit<InterceptOptions, 'file'>;

/** The same with a body: how many samples, passing by which rule (see SampleOptions). */
export type SampledInterceptThisTestOptions = Omit<SampledInterceptOptions, 'file'>;

const VITEST = {
  name: 'vitest',
  neededBy: 'interceptThisTest (legate/intercept)',
  install: 'npm install --save-dev vitest',
};

/** The part of a vitest test task the file name is made of, and its `meta`, where the claim is left. */
interface TestTask {
  name: string;
  meta: Record<string, unknown>;
  suite?: TestTask;
  file: TestTask & { filepath: string };
}

/**
 * interceptAnthropic for the vitest test that calls it: the file is named after the test
 * (`<folder of the test file>/__trajectories__/<test file name>/<titles>.yaml`, see trajectoryFileName),
 * `vitest -u` records it afresh (`LEGATE_MODE` still wins), and the interception closes when the test
 * finishes, so a divergence or a failed save fails the test without a `close()` in it. With a body, as
 * interceptAnthropic with one: the body runs once per sample, and the interception is closed when it resolves.
 */
export async function interceptThisTest(options?: InterceptThisTestOptions): Promise<Interception>;
export async function interceptThisTest(
  options: SampledInterceptThisTestOptions,
  body: InterceptBody,
): Promise<InterceptionRun>;
export async function interceptThisTest(
  options: SampledInterceptThisTestOptions = {},
  body?: InterceptBody,
): Promise<Interception | InterceptionRun> {
  const vitest = await loadVitest();
  const test = (await currentTest(vitest)) as TestTask | undefined;
  if (test === undefined)
    throw new UsageError(
      'not_in_a_test',
      'interceptThisTest() names its file after the running vitest test, but no test was running: it was called ' +
        'outside the function given to it() or test() (in a describe body, a beforeAll or afterAll hook, or ' +
        'outside vitest). Call it inside the test, or call interceptAnthropic({ file }) with a file of your own.',
    );
  const titles: string[] = [];
  // Its describe blocks, outermost first; not the file's task (a parent in vitest 3), whose name is the file's path.
  for (let task: TestTask | undefined = test; task !== undefined && task !== test.file; task = task.suite)
    titles.unshift(task.name);
  const file = testTrajectoryFile(test.file.filepath, titles);
  const release = claim(test, file, titles);
  const update = isUpdatingSnapshots(vitest.expect.getState());
  const resolved: SampledInterceptOptions = {
    name: titles.join(' > '),
    // A divergence says to re-record with `-u`, as for a snapshot.
    runner: { kind: 'vitest', testFile: relative(options.cwd ?? process.cwd(), test.file.filepath), update: true },
    ...options,
    ...(update ? { mode: 'record' as const } : {}),
    file,
  };
  if (body !== undefined) {
    const running = interceptAnthropic(resolved, body).finally(release);
    // Not awaited by the test: its end still waits for the samples, so that they do not intercept the next test.
    vitest.onTestFinished(() => running.then(noop, noop));
    return running;
  }
  let interception: Interception;
  try {
    interception = await interceptAnthropic(resolved);
  } catch (error) {
    release();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= interception.close().finally(release));
  // Closed by the test itself: the outcome is the test's (it may expect a divergence); its end only waits for it.
  vitest.onTestFinished(() => (closing === undefined ? close() : closing.then(noop, noop)));
  return {
    mode: interception.mode,
    file: interception.file,
    get trajectory() {
      return interception.trajectory;
    },
    close,
  };
}

const noop = () => {};

/** Per test file (its task), each trajectory file claimed and by which test: one file records one test. */
const claims = new WeakMap<object, Map<string, { test: TestTask; open: boolean }>>();

/** Claims `file` for `test`; returns what releases it once its interception is closed. */
function claim(test: TestTask, file: string, titles: readonly string[]): () => void {
  const claimed = claims.get(test.file) ?? new Map<string, { test: TestTask; open: boolean }>();
  claims.set(test.file, claimed);
  const held = claimed.get(file);
  if (held?.test === test && held.open)
    throw new UsageError(
      'trajectory_file_in_use',
      `interceptThisTest() was already called in this test, and that interception of ${file} is still open. ` +
        'Call it once per test (a test records one file), or close() the first interception before calling it again.',
    );
  if (held !== undefined && held.test !== test)
    throw new UsageError(
      'trajectory_file_in_use',
      `Two tests in ${test.file.filepath} are named ${JSON.stringify(titles.join(' > '))}, so both would record ` +
        `to ${file}. Give one of them another name: vitest allows twins, one trajectory file cannot hold both.`,
    );
  const entry = { test, open: true };
  claimed.set(file, entry);
  // For the obsolete-trajectories reporter: this file is a test's, so not obsolete.
  markClaimed(test.meta, file);
  return () => {
    entry.open = false;
  };
}

async function loadVitest() {
  try {
    return await import('vitest');
  } catch (error) {
    throw MissingPeerDependencyError.orCause(error, VITEST);
  }
}

type Vitest = Awaited<ReturnType<typeof loadVitest>>;

/** The running test: `TestRunner.getCurrentTest()` since vitest 4.1, `getCurrentTest` of `vitest/suite` before. */
async function currentTest(vitest: Vitest): Promise<unknown> {
  const runner = (vitest as { TestRunner?: { getCurrentTest(): unknown } }).TestRunner;
  if (runner !== undefined) return runner.getCurrentTest();
  return (await import('vitest/suite')).getCurrentTest();
}
