// vitest globalSetup: builds the package (`npm run build`, into dist/) once per run, in the background, so that the
// tests that run the `legate` command as users do (a process of its own, where the process is the subject) run the
// built command, not the TypeScript source through tsx. Tests wait for it through test/support/builtPackage.ts. The
// run's end waits for the build, so dist/ is never left half-written.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { childOutput } from './childOutput.js';
import { writeStatus } from './statusFile.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file that reads `built` once dist/ is built from today's source, or says why the build failed. */
    packageBuildStatus: string;
  }
}

/**
 * Set by a test that runs the suite's configuration in a vitest of its own (test/suiteExitCode.test.ts): that run
 * shares this run's build, since a second build would rewrite dist/ while other tests run the built command.
 */
export const SHARED_BUILD = 'LEGATE_TEST_PACKAGE_BUILD_STATUS';

export default function setup(project: TestProject): () => Promise<void> {
  const shared = process.env[SHARED_BUILD];
  if (shared !== undefined && shared !== '') {
    project.provide('packageBuildStatus', shared);
    return async () => {};
  }
  const folder = mkdtempSync(join(tmpdir(), 'legate-build-'));
  const status = join(folder, 'status');
  project.provide('packageBuildStatus', status);
  const build = spawn('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const done = childOutput(build).then(
    ({ status: code, stdout, stderr }) =>
      writeStatus(status, code === 0 ? 'built' : `\`npm run build\` failed (exit ${code}):\n${stdout}${stderr}`),
    (error: Error) => writeStatus(status, `\`npm run build\` could not start: ${error.message}`),
  );
  return async () => {
    await done;
    rmSync(folder, { recursive: true, force: true });
  };
}
