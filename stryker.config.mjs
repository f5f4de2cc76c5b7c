// Mutation testing of the code legate's safety promises rest on: the guard, suspension and
// resume, and the argument binder. Run with `npm run mutate` (about half an hour; not in CI).
// The HTML and JSON reports go to reports/mutation/ (gitignored).
//
// Excluded on purpose, and only this: message wording (mutation/messageWordingIgnorer.mjs).
// Mutants inside the text of a thrown error (the last argument of `new XxxError(...)`), inside
// the `message` of a guard block, and the string literals whose value reaches only the words of
// a binder refusal (what a value must be, what arrived) are reported as ignored, not run: a
// changed word there is not a behaviour change. Codes, rule names and every other string stay
// mutated. A mutant no input can tell from the code is marked where it is, with the reason
// (`// Stryker disable next-line <Mutator>: ...`).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/guard/**/*.ts',
    'src/runtime/approval/checkSuspension.ts',
    'src/runtime/approval/resumeRun.ts',
    'src/runtime/approval/outcomeUnknownError.ts',
    'src/runtime/approval/suspension.ts',
    'src/tools/binder/**/*.ts',
  ],
  appendPlugins: ['./mutation/messageWordingIgnorer.mjs'],
  ignorers: ['message-wording'],
  concurrency: 2,
  // A mutant that loops forever is stopped after its tests' dry-run time, times 1.5, plus this.
  timeoutMS: 5000,
  // The first run of every test, measuring coverage per test, takes minutes on a busy machine (the default allows 5).
  dryRunTimeoutMinutes: 20,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The project's tsconfig has no `extends` or `references` for Stryker to rewrite, and its
  // rewriter needs TypeScript's JavaScript API, which TypeScript 7 (the native compiler) lacks:
  // point it at no file so it is skipped.
  tsconfigFile: 'no-tsconfig-to-rewrite.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // A rerun after a change re-tests only the mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  thresholds: { high: 95, low: 90, break: null },
};
