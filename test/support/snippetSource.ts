import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';

const root = resolve('.');

/** Each entry point a reader imports (`legate`, `legate/mcp`, ...) and its source file, from package.json's exports. */
const ENTRIES: [string, string][] = Object.entries(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, string | { default: string }>,
).flatMap(([path, target]) => {
  const built = typeof target === 'string' ? target : target.default;
  if (!built.startsWith('./dist/src/')) return [];
  const source = join(root, built.slice('./dist/'.length).replace(/\.js$/, '.ts'));
  return [[path === '.' ? 'legate' : `legate/${path.slice(2)}`, source]];
});

/** A doc's example with its imports of legate's entry points pointed at this repository's source. */
export function pointedAtSource(code: string): string {
  return ENTRIES.reduce(
    (text, [entry, source]) =>
      text.replaceAll(`from '${entry}'`, `from '${source}'`).replaceAll(`import '${entry}'`, `import '${source}'`),
    code,
  );
}

/** Writes a doc's example to `folder` as `<name>.ts` (imports pointed at the source), runs it, returns its output. */
export async function runSnippet(folder: string, name: string, code: string): Promise<unknown[][]> {
  const file = join(folder, `${name}.ts`);
  writeFileSync(file, pointedAtSource(code));
  const printed: unknown[][] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args);
  });
  try {
    await import(file);
  } finally {
    vi.restoreAllMocks();
  }
  return printed;
}
