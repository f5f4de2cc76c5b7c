import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childOutput } from './childOutput.js';

const root = resolve('.');
const hook = fileURLToPath(new URL('./moduleLog.mjs', import.meta.url));

export interface LoadedModules {
  status: number | null;
  stdout: string;
  stderr: string;
  /**
   * What the process loaded, each once: a package's modules as the package's name (`@anthropic-ai/sdk`, `zod`),
   * with the file after a colon where it matters (`@anthropic-ai/sdk:version.mjs`); legate's own as their path
   * under dist/ (`cli/main.js`, `src/version.js`); Node's as `node:path`. Anything else as its URL.
   */
  modules: string[];
  /**
   * legate's own TypeScript sources whose code the process loaded, as their path in the repository
   * (`src/version.ts`, `cli/commands/show.ts`): the build bundles them into few files (dist/chunks/...), so each
   * loaded file of dist/ is read as the sources its source map lists.
   */
  sources: string[];
}

/**
 * Runs `node <args>` in legate's root (where `legate` resolves to the built dist/), as a process of its own, with
 * every module it loads written down (test/support/moduleLog.mjs); resolves once it has ended.
 */
export async function loadedModules(args: string[]): Promise<LoadedModules> {
  const folder = mkdtempSync(join(tmpdir(), 'legate-modules-'));
  const log = join(folder, 'modules.log');
  try {
    const child = spawn(process.execPath, ['--import', hook, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '', LEGATE_MODULE_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { status, stdout, stderr } = await childOutput(child);
    const urls = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const modules = [...new Set(urls.map(named))];
    return { status, stdout, stderr, modules, sources: [...new Set(modules.flatMap(sourcesOf))].sort() };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A module's URL said as LoadedModules says it. */
function named(url: string): string {
  if (url.startsWith('node:')) return url;
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (inPackage !== null) return `${inPackage[1]}:${inPackage[2]}`;
  const dist = `${root}/dist/`;
  return path.startsWith(dist) ? path.slice(dist.length) : url;
}

/** The sources (paths in the repository) a loaded file of dist/ holds, from its source map; none for another file. */
function sourcesOf(module: string): string[] {
  const map = join(root, 'dist', `${module}.map`);
  if (!module.endsWith('.js') || !existsSync(map)) return [];
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  return sources.map((source) => relative(root, resolve(dirname(map), source)));
}
