import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One process the startup bench starts: `node <args>` in `cwd`, and what it must print to count. */
export interface StartupSubject {
  name: string;
  args: string[];
  cwd: string;
  /** What standard output holds when the process did its job (a run that failed is not a measurement). */
  prints: RegExp;
}

/** A process run once: its exit status, what it printed, and the CPU time it used. */
export interface StartupRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** User and system CPU time of the child process, as the system accounts it (getrusage of children), in ms. */
  cpuMs: number;
}

/** The shipped trajectory the one-file replay replays, and the example agent it was recorded from. */
const TRAJECTORY = 'trajectories/invalid-argument-corrected.yaml';

/**
 * A project of one trajectory in `dir`, for `legate replay`: a config written as JavaScript (so no tsx is loaded;
 * its cost is not legate's) that imports the built legate and the example calculator agent by their file URLs.
 */
export function prepareReplayProject(root: string, dir: string): void {
  mkdirSync(join(dir, 'trajectories'), { recursive: true });
  copyFileSync(join(root, TRAJECTORY), join(dir, TRAJECTORY));
  const url = (path: string) => pathToFileURL(resolve(root, path)).href;
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'legate.config.mjs'),
    `import { defineConfig } from '${url('dist/src/index.js')}';\n` +
      `import { createCalculator } from '${url('dist/examples/calculator/agent.js')}';\n` +
      "export default defineConfig({ agents: { calculator: createCalculator }, trajectories: 'trajectories' });\n",
  );
}

/**
 * What the bench compares, each beside its anchor: the built `legate --version` beside `vitest --version`;
 * `import('legate')` (the built package, by its name) beside `import('@anthropic-ai/sdk')`; and a one-file
 * `legate replay` in `project` (see prepareReplayProject) beside `vitest --version` again.
 */
export function startupSubjects(root: string, project: string) {
  const imported = (name: string, specifier: string): StartupSubject => ({
    name,
    args: ['--input-type=module', '-e', `await import('${specifier}'); console.log('imported');`],
    cwd: root,
    prints: /^imported\n$/,
  });
  return {
    legateVersion: {
      name: 'legate --version',
      args: [join(root, 'dist/cli/legate.js'), '--version'],
      cwd: root,
      prints: /^\d+\.\d+\.\d+\n$/,
    },
    vitestVersion: {
      name: 'vitest --version',
      args: [join(root, 'node_modules/vitest/vitest.mjs'), '--version'],
      cwd: root,
      prints: /^vitest\/\d+\.\d+\.\d+ /,
    },
    importLegate: imported("import('legate')", 'legate'),
    importSdk: imported("import('@anthropic-ai/sdk')", '@anthropic-ai/sdk'),
    replayOne: {
      name: 'legate replay, one file',
      args: [join(root, 'dist/cli/legate.js'), 'replay'],
      cwd: project,
      prints: /\n1 replayed: 1 passed, 0 failed\n$/,
    },
  } satisfies Record<string, StartupSubject>;
}

/**
 * Runs the subject once, through bash, whose `times` reports the CPU time of the children it waited for (the
 * child's, not this process's, nor the wall clock's on a shared machine), with millisecond precision.
 */
export function runSubject(subject: StartupSubject): StartupRun {
  const script = '"$@"; status=$?; times >&3; exit $status';
  const run = spawnSync('bash', ['-c', script, 'bash', process.execPath, ...subject.args], {
    cwd: subject.cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '', CI: '', VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  if (run.error !== undefined)
    throw new Error(`the startup bench runs its subjects through bash: ${run.error.message}`);
  // `times` prints the shell's own user and system time, then its children's: `0m0.071s 0m0.012s`.
  const children = String(run.output[3] ?? '')
    .trim()
    .split('\n')[1];
  const seconds = [...(children ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  if (seconds.length !== 2) throw new Error(`bash's times said ${JSON.stringify(run.output[3])}, not two figures`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, cpuMs: (seconds[0]! + seconds[1]!) * 1000 };
}
