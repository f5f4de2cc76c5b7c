/**
 * `legate/vitest/reporter`: a vitest reporter that reports the trajectory files interceptThisTest recorded for tests
 * that are gone (renamed, deleted, or no longer recording), as vitest reports obsolete snapshots, and removes them
 * under `vitest -u`. Listed by name in vitest's config: `reporters: ['default', 'legate/vitest/reporter']`.
 */
import { isAbsolute, relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { isUpdateRun } from '../recording/snapshotUpdate.js';
import { claimedTrajectory } from './claimedTrajectory.js';
import {
  findObsoleteTrajectories,
  type ObsoleteTrajectory,
  removeObsoleteTrajectories,
  type TestFileOutcome,
} from './obsoleteTrajectories.js';
import { testTrajectoryFile } from './testTrajectoryFile.js';

export default class ObsoleteTrajectoriesReporter implements Reporter {
  #vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: TestRunEndReason) {
    const vitest = this.#vitest;
    if (vitest === undefined || !judged(vitest, modules, unhandledErrors, reason)) return;
    const path = (file: string) => relative(vitest.config.root, file) || file;
    const log = (text: string) => vitest.logger.log(text);
    /** The heading, then a line for each file (and why, when its test file is gone). */
    const list = (obsolete: readonly ObsoleteTrajectory[], heading: (them: string) => string) => {
      const count =
        obsolete.length === 1 ? '1 obsolete trajectory file' : `${obsolete.length} obsolete trajectory files`;
      log(`legate: ${count}${heading(obsolete.length === 1 ? 'it' : 'them')}`);
      for (const { file, testFile, reason } of obsolete)
        log(reason === 'gone' ? `  ${path(file)} (${path(testFile)} is gone)` : `  ${path(file)}`);
    };
    let obsolete: ObsoleteTrajectory[];
    try {
      obsolete = findObsoleteTrajectories(modules.filter(isRuntimeModule).map(outcomeOf));
    } catch (error) {
      log(`legate: could not look for obsolete trajectory files: ${(error as Error).message}`);
      return;
    }
    if (obsolete.length === 0) return;
    if (!isUpdateRun(vitest.snapshot)) {
      list(obsolete, (them) => ` (no test records to ${them}; vitest -u removes ${them}):`);
      return;
    }
    const removal = removeObsoleteTrajectories(obsolete);
    const removed = obsolete.filter(({ file }) => removal.files.includes(file));
    if (removed.length > 0) list(removed, (them) => ` removed (no test records to ${them}):`);
    if (removal.folders.length > 0) log(`  and the folders left empty: ${removal.folders.map(path).join(', ')}`);
    for (const { path: failed, message } of removal.failures)
      log(`legate: could not remove the obsolete ${path(failed)}: ${message}`);
  }
}

/**
 * Whether the run can prove a trajectory file obsolete. Not when it was filtered by name (`-t`), interrupted (a
 * bail, Ctrl-C), or when a test file failed to load or an error escaped the tests: then which tests exist, or
 * what they would record, is not known, and a recording is never removed on a guess.
 */
function judged(
  vitest: Vitest,
  modules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<unknown>,
  reason: TestRunEndReason,
): boolean {
  const namePattern = vitest.getGlobalTestNamePattern?.() ?? vitest.config.testNamePattern;
  if (reason === 'interrupted' || unhandledErrors.length > 0 || namePattern) return false;
  const ran = new Set(['passed', 'failed', 'skipped']);
  return modules.every((module) => module.errors().length === 0 && ran.has(module.state()));
}

/** A test file on disk (not a virtual module) run as tests (not `vitest typecheck`'s, which record nothing). */
function isRuntimeModule(module: TestModule): boolean {
  return isAbsolute(module.moduleId) && module.meta().typecheck !== true;
}

/** What a test file's run tells: whether all its tests ran, and the files its tests keep. */
function outcomeOf(module: TestModule): TestFileOutcome {
  const kept: string[] = [];
  let whole = true;
  for (const test of module.children.allTests()) {
    if (test.options.mode !== 'run') whole = false;
    const claimed = claimedTrajectory(test.meta() as Record<string, unknown>);
    if (claimed !== undefined) kept.push(claimed);
    // A test that failed (or skipped itself as it ran, or passed by failing: `test.fails`) may have stopped before it
    // claimed its file: the file named after it is kept.
    if (test.result().state !== 'passed' || test.options.fails === true)
      kept.push(testTrajectoryFile(module.moduleId, titlesOf(test)));
  }
  return { testFile: module.moduleId, whole, kept };
}

/** A test's titles, as interceptThisTest reads them: its describe blocks', outermost first, then its own. */
function titlesOf(test: TestCase): string[] {
  const titles = [test.name];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) titles.unshift(parent.name);
  return titles;
}
