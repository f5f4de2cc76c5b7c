// `npm run build`: the published package in dist/. esbuild bundles legate's own code (every bare import stays a
// package of its own, but zod: see BUNDLED) into one file per entry point at the path package.json names, with the
// code entries share in dist/chunks/: each class exists once however many entries a process loads, and a lazily
// imported module (a verb of the command) stays a chunk of its own. Node then reads a few files instead of a few
// hundred. tsc writes the declarations beside them. Plain JavaScript, so the build needs no loader.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/**
 * The one package bundled, tree-shaken to the parts legate uses: zod's ES modules are about a hundred files (its 64
 * locales among them, which every entry of zod loads), and importing them was half of what `import('legate')` cost
 * (CPU on an idle machine: zod alone 118-128 ms; legate 204-222 ms with zod as installed, 150-160 ms bundled). zod is
 * made to run as several copies in one process: its config and its registry of schema metadata live on `globalThis`,
 * and its `instanceof` reads a schema's traits, so a tool author's own zod and this copy agree (a tool's zod schema is
 * converted by its own zod: src/tools/schema/fromZod.ts; test/packedInstall.test.ts declares one beside the copy).
 * `zod` stays a dependency: the declarations name its types.
 */
const BUNDLED = /^zod(\/|$)/;

/** Every bare import is a package's and stays one (Node resolves it as installed), but BUNDLED's. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) => (BUNDLED.test(path) ? undefined : { path, external: true }));
  },
};

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
  plugins: [externalPackages],
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
