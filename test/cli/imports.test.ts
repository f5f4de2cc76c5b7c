import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The CLI is thin: each verb calls the library through its public surface (the entry points a
// user imports) and a few small shared leaves. It never reaches into the layers behind them.
const root = join(import.meta.dirname, '../..');
const ALLOWED = [
  /^src\/index\.ts$/, // legate
  /^src\/fuzz\/index\.ts$/, // legate/fuzz
  /^src\/assert\/vitest\.ts$/, // legate/vitest
  /^src\/mcp\/index\.ts$/, // legate/mcp (its SDK loaded only when a server starts)
  /^src\/openapi\/index\.ts$/, // legate/openapi (its parser loaded only when a document is read)
  /^src\/view\/index\.ts$/, // legate/view (the HTML pages of view, replay --reporter html, diff --html)
  /^src\/intercept\/index\.ts$/, // legate/intercept (legate stand-in; msw is loaded only when interception starts)
  /^src\/files\/writeFileAtomic\.ts$/, // a whole-or-nothing file write, for the pages and reports written
  /^src\/files\/readRegularFile\.ts$/, // every file read by a path given: a regular file, bounded (no FIFO, no device)
  /^src\/files\/importModule\.ts$/, // the command's threads are its own: TypeScript registered for the whole thread
  /^src\/version\.ts$/, // legate's version, for --version
  /^src\/files\/packageRoot\.ts$/, // where legate's files are, from source or built: the replay worker's script
  /^src\/errors\/LegateError\.ts$/, // what main tells a refusal from a bug by, without loading the library
  /^src\/files\/ModuleImportError\.ts$/, // how a refusal to import a module is said, without loading the library
  /^src\/json\/[^/]+\.ts$/, // JSON text and value descriptions, shared by every layer
  /^src\/trajectory\/inputText\.ts$/, // a run's input as text, as show and the view print it (JSON and types only)
];

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module of legate's src/ a file imports (static, re-exported or dynamic), relative to the root. */
function srcImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)].map((m) => m[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(root, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'))
    .filter((path) => path.startsWith('src/'));
}

describe('the CLI', () => {
  it('imports the library only through its entry points and the small shared leaves', () => {
    const reaching = sources(join(root, 'cli')).flatMap((file) =>
      srcImports(file)
        .filter((path) => !ALLOWED.some((allowed) => allowed.test(path)))
        .map((path) => `${relative(root, file)} imports ${path}`),
    );
    expect(reaching).toEqual([]);
  });

  it('is seen importing what it imports (the check above can fail)', () => {
    const text =
      `import { x } from '../src/replay/projectConfig.js';\nconst m = await ` + `import('../src/guard/pipeline.js');`;
    const seen = srcImports(join(root, 'cli', 'probe.ts'), text);
    expect(seen).toEqual(['src/replay/projectConfig.ts', 'src/guard/pipeline.ts']);
    expect(seen.filter((path) => !ALLOWED.some((allowed) => allowed.test(path)))).toEqual(seen);
  });
});
