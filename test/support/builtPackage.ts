// The package as `npm run build` makes it (built once per run by test/support/packageBuild.ts), for tests whose
// subject is a process of its own: the `legate` command's exit code and output, a kill, a race.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import { type ChildOutput, childOutput } from './childOutput.js';
import { setupReady } from './statusFile.js';

/** The built command, `dist/cli/legate.js`, once this run's build is done; rejects with the build's output if not. */
export async function builtLegate(): Promise<string> {
  await setupReady(inject('packageBuildStatus'), 'built');
  return resolve('dist/cli/legate.js');
}

export type LegateRun = ChildOutput;

/**
 * Runs the built `legate` command in `cwd` as a user's shell does, with no colour and none of the variables that
 * change its behaviour unless given in `env` (a variable given as undefined is not set at all); `node` options (a V8
 * flag, say) go before the command. Waits on the process's end, however long the machine takes.
 */
export async function runLegate(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  node: string[] = [],
): Promise<LegateRun> {
  return runBuilt([...node, await builtLegate(), ...args], cwd, env);
}

/**
 * Runs `node args` in `cwd` once the package is built (for a script that imports it from dist/, as a user's imports
 * `legate`), in the environment runLegate gives. Waits on the process's end, however long the machine takes.
 */
export async function runBuilt(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<LegateRun> {
  await builtLegate();
  const given = { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '', CI: '', VITEST: '', ...env };
  const child = spawn(process.execPath, args, {
    cwd,
    env: Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return childOutput(child);
}
