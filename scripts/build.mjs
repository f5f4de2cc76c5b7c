// `npm run build`: the published package in dist/. esbuild bundles legate's own code (every bare import stays a
// package of its own) into one file per entry point at the path package.json names, with the code entries share in
// dist/chunks/: each class exists once however many entries a process loads, and a lazily imported module (a verb
// of the command) stays a chunk of its own. Node then reads a few files instead of a few hundred. tsc writes the
// declarations beside them. Plain JavaScript, so the build needs no loader.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/** Every module loaded by its path: package.json's exports, the command, its replay worker, the examples. */
function entryPoints() {
  const exported = Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target) => typeof target === 'string' && target.startsWith('./dist/src/'))
    .map((target) => target.slice('./dist/'.length).replace(/\.js$/, '.ts'));
  // The command's worker threads start cli/replay/replayWorker by its path (cli/replay/workerPool.ts).
  const command = ['cli/legate.ts', 'cli/replay/replayWorker.ts'];
  // Users and the bench import examples by path (dist/examples/calculator/agent.js): each keeps its own.
  const examples = readdirSync('examples', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join('examples', file));
  return [...exported, ...command, ...examples].map((file) => ({ in: file, out: file.replace(/\.ts$/, '') }));
}

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: entryPoints(),
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  sourcesContent: true,
  // A class's name is part of what legate reports (a tool failure's errorClass, an error's stack): kept as written.
  keepNames: true,
  logLevel: 'warning',
});
chmodSync('dist/cli/legate.js', 0o755);
execFileSync(join('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { stdio: 'inherit' });
