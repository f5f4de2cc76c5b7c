import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportsOf } from './exportsOf.js';
import type { ImportEdge } from './importGraph.js';

/** A file that exports names no other file imports, and those names. */
export interface UnusedExports {
  readonly file: string;
  readonly names: readonly string[];
}

/**
 * The names each of `files` (paths relative to `root`) exports that no other file imports along `edges`: an import
 * of the whole module (`import * as`, `export * from`, `import('...')`) takes every name. An entry point's exports are
 * its users', so `entries` are not checked; a name an entry re-exports is imported by it.
 */
export function unusedExportsOf(
  root: string,
  files: readonly string[],
  edges: readonly ImportEdge[],
  entries: ReadonlySet<string>,
): UnusedExports[] {
  const imported = new Map<string, Set<string>>();
  for (const { from, to, names } of edges) {
    if (from === to) continue;
    const taken = imported.get(to) ?? new Set();
    for (const name of names) taken.add(name);
    imported.set(to, taken);
  }
  return files
    .flatMap((file) => {
      if (entries.has(file)) return [];
      const taken = imported.get(file) ?? new Set();
      if (taken.has('*')) return [];
      const exported = exportsOf(readFileSync(join(root, file), 'utf8')).names.map(({ name }) => name);
      const names = [...new Set(exported)].filter((name) => !taken.has(name));
      return names.length === 0 ? [] : [{ file, names }];
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** The source files of package.json's "exports" (`./dist/src/x.js` is built from `src/x.ts`). */
export function entryPointsOf(packageJson: string): Set<string> {
  const { exports } = JSON.parse(packageJson) as { exports: Record<string, string | { default?: string }> };
  return new Set(
    Object.values(exports).flatMap((target) => {
      const built = typeof target === 'string' ? target : target.default;
      return built?.startsWith('./dist/src/') ? [built.slice('./dist/'.length).replace(/\.js$/, '.ts')] : [];
    }),
  );
}
