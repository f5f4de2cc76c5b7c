import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant: those of the guard, the runtime
 * (suspension and resume), the tools (the binder) and the audit, which is where the guard's
 * declarations for a recording (src/guard/auditDeclarations.ts) are read. Stryker's per-test
 * coverage then picks, for each mutant, only the tests that reach it.
 */
export default defineConfig({
  test: {
    include: [
      'test/guard/**/*.test.ts',
      'test/runtime/**/*.test.ts',
      'test/tools/**/*.test.ts',
      'test/intercept/auditProvenanceIntercept.test.ts',
      'test/intercept/unsafeFlow.test.ts',
    ],
    environment: 'node',
    // One module graph for all test files: importing legate afresh for every file and every
    // mutant cost most of the run. Mutants are switched at run time, so they need no re-import;
    // tests of compiled schemas define their tools inside each test (test/support/probeTool.ts,
    // test/support/twoPendingPayments.ts), so their compiled schemas see the mutant.
    isolate: false,
    // The machine running a mutation run is busy: property tests get room before they time out.
    testTimeout: 30000,
    // The suite's fixed fast-check seed: the same property-test cases for every mutant, and none of the random
    // patterns that make JavaScript's own RegExp backtrack for minutes (a random seed met one in the dry run).
    setupFiles: ['./test/support/fastCheckSeed.ts'],
  },
});
