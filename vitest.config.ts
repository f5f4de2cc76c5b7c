import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests are offline: msw answers every HTTP request the SDK makes.
    environment: 'node',
    // A hang guard, not a speed check: a loaded 2-core machine must not fail a correct test.
    testTimeout: 30_000,
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
