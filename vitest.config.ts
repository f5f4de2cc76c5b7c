import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests are offline: msw answers every HTTP request the SDK makes.
    environment: 'node',
    // A hang guard, not a speed check: a loaded 2-core machine must not fail a correct test.
    testTimeout: 30_000,
    // vitest's default leaves a core idle (one worker on two cores); many files here wait on child
    // processes and disk, so one worker per core keeps both busy.
    maxWorkers: availableParallelism(),
    // Test files share their worker's module graph instead of importing legate afresh each: importing
    // was 180 s of a 370 s suite. Tests therefore keep no state in modules between files (msw servers
    // are closed in afterAll, temporary folders are their own); a test that needs a module of its own
    // mocks it (vi.mock, as test/cli/fifo.test.ts does).
    isolate: false,
    reporters: ['default', './test/support/summaryReporter.ts'],
    // The same property-test cases on every run (FC_SEED explores others): see test/support/fastCheckSeed.ts.
    setupFiles: ['./test/support/fastCheckSeed.ts'],
    // A PostgreSQL server of the suite's own for legate/postgres, started in the background and stopped after.
    globalSetup: ['./test/support/postgresServer.ts'],
  },
});
