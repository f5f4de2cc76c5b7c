import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests are offline: msw answers every HTTP request the SDK makes.
    environment: 'node',
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
