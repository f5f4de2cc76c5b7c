// The argument binder alone (src/tools/binder/), against the binder's own tests (test/tools/): `npm run
// mutate:binder`, about 75 minutes on 2 cores. The whole `npm run mutate` also reaches the binder from every other
// test that defines a tool, which makes each binder mutant cost minutes; this run measures what test/tools alone kills.
// Reports go to reports/mutation-binder/ (gitignored).
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.binder.config.ts', related: false },
  mutate: ['src/tools/binder/**/*.ts'],
  // A loaded machine must not turn a surviving mutant into a timeout (which counts as killed).
  timeoutMS: 15000,
  htmlReporter: { fileName: 'reports/mutation-binder/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation-binder/mutation.json' },
  incrementalFile: 'reports/mutation-binder/stryker-incremental.json',
  tempDirName: '.stryker-tmp-binder',
};
