import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Ends a run with one plain line, `N passed, N failed`, that any CI log reader understands, after vitest's own
 * summary. A failure that is no test's also counts as failed, so the line never says `0 failed` of a run that failed:
 * a test file that could not load (its module threw, no test was collected) counts once, and so does each error that
 * escaped every test (vitest's "unhandled errors"). `.ci/run` reads this line (scripts/closing-line.ts).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    _reason: TestRunEndReason,
  ): void {
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') failedTests++;
        else counts.skipped++;
      }
      // A file's own errors (it threw while loading, or in a hook outside any test) fail it without failing a test.
      const fileFailed = failedTests === 0 && (module.errors().length > 0 || module.state() === 'failed');
      counts.failed += failedTests + (fileFailed ? 1 : 0);
    }
    const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
    process.stdout.write(`${counts.passed} passed, ${counts.failed} failed${skipped}\n`);
  }
}
