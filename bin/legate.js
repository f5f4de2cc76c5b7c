#!/usr/bin/env node
// The `legate` command as npm links it (package.json "bin"). The published package runs its build, dist/cli/legate.js.
// A checkout of the repository, which has the TypeScript source beside this file, runs that source through tsx (a
// devDependency), so `npm ci && npx legate replay` needs no build step (and no install script), and never runs a
// build older than the source. Plain JavaScript, so it runs before anything is built.
import { existsSync } from 'node:fs';

const source = new URL('../cli/legate.ts', import.meta.url);
if (existsSync(source)) {
  // What `node --import tsx` does: tsx for ES modules and for CommonJS (a config outside an ES-module package is one).
  const apis = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]).catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    console.error('legate: this checkout runs its TypeScript source through tsx, which is not installed: run npm ci.');
    process.exit(2);
  });
  for (const tsx of apis) tsx.register();
  await import(source.href);
} else {
  await import('../dist/cli/legate.js');
}
