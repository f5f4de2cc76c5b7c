import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The bench imports legate by its package name, which resolves to the built dist/ (what `npm run bench`
// measures); tests that check the bench's scenarios import them with each entry point's source instead.
const entries = (JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> }).exports;
const sourceOfEntries = Object.entries(entries).flatMap(([entry, target]) => {
  const built = (target as { default?: unknown }).default;
  if (typeof built !== 'string' || !built.startsWith('./dist/src/')) return [];
  const name = `legate${entry.slice(1)}`.replaceAll('/', '\\/');
  const source = new URL(built.replace('./dist/', './').replace(/\.js$/, '.ts'), import.meta.url).pathname;
  return [{ find: new RegExp(`^${name}$`), replacement: source }];
});

export default defineConfig({
  resolve: { alias: sourceOfEntries },
  test: {
    include: ['test/**/*.test.ts'],
    // Tests are offline: msw answers every HTTP request the SDK makes.
    environment: 'node',
    // A hang guard, not a speed check: a loaded 2-core machine must not fail a correct test. At a load of 20 on 2 cores
    // a test runs about 10 times slower than on an idle machine, where the slowest with this default take 4 s; hooks
    // (a browser or a server started in beforeAll) get the same.
    testTimeout: 120_000,
    hookTimeout: 120_000,
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
    // In the background: a PostgreSQL server of the suite's own for legate/postgres (in a process of its own, so its
    // exit hooks cannot touch this process's exit code), and the package built into dist/ for tests that run the
    // command as users do.
    globalSetup: ['./test/support/postgresServer.ts', './test/support/packageBuild.ts'],
  },
});
