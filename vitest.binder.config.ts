import { defineConfig } from 'vitest/config';
import base from './vitest.mutate.config.ts';

/** The tests `npm run mutate:binder` runs against each binder mutant: the binder's own, in test/tools/. */
export default defineConfig({ ...base, test: { ...base.test, include: ['test/tools/**/*.test.ts'] } });
