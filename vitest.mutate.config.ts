import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant: those of the guard, the runtime
 * (suspension and resume) and the tools (the binder). Stryker's per-test coverage then picks,
 * for each mutant, only the tests that reach it.
 */
export default defineConfig({
  test: {
    include: ['test/guard/**/*.test.ts', 'test/runtime/**/*.test.ts', 'test/tools/**/*.test.ts'],
    environment: 'node',
  },
});
