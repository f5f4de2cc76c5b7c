import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve('.');

export interface LegateRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `legate` command (this checkout's source, through tsx) in `cwd`, as a user's shell does. */
export function runLegate(args: string[], cwd: string, env: Record<string, string> = {}): LegateRun {
  const loader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
  const run = spawnSync(process.execPath, ['--import', loader, join(root, 'cli/legate.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '', CI: '', VITEST: '', ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
