import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports: Record<string, unknown>;
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The package a bare import names: `@scope/name` or `name`, without a sub-path. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe('the published package', () => {
  it('depends on every package its shipped code imports (a devDependency would break users)', () => {
    const allowed = new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies ?? {}),
      'legate',
    ]);
    const missing: string[] = [];
    for (const file of [...sources('src'), ...sources('cli'), ...sources('examples')]) {
      const text = readFileSync(file, 'utf8');
      // Static imports and re-exports (type-only ones vanish from the built code), side-effect
      // imports, and dynamic imports.
      const statements = [...text.matchAll(/^\s*(?:import|export)(\s+type)?\b[^;]*?\bfrom\s+'([^']+)'/gms)]
        .filter((m) => m[1] === undefined)
        .map((m) => m[2]!);
      const bare = [...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1]!);
      const dynamic = [...text.matchAll(/\bimport\('([^']+)'\)/g)].map((m) => m[1]!);
      for (const specifier of [...statements, ...bare, ...dynamic]) {
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier)))
          continue;
        if (!allowed.has(packageOf(specifier))) missing.push(`${file}: ${specifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('exports the entry points the docs name', () => {
    const entries = [
      '.',
      './vitest',
      './vitest/reporter',
      './fuzz',
      './sqlite',
      './postgres',
      './intercept',
      './mcp',
      './openapi',
      './view',
      './trajectory-v1.schema.json',
      './package.json',
    ];
    expect(Object.keys(manifest.exports)).toEqual(entries);
  });
  it("tsconfig.check.json's paths check each entry point against its source, as package.json exports it", () => {
    // JSON with comments, as tsc reads it.
    const text = readFileSync('tsconfig.check.json', 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const { paths } = (JSON.parse(text) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions;
    const fromExports = Object.entries(manifest.exports).flatMap(([entry, target]) => {
      const types = (target as { types?: unknown }).types;
      if (typeof types !== 'string') return [];
      return [[`legate${entry.slice(1)}`, [types.replace('./dist/', './').replace(/\.d\.ts$/, '.ts')]]];
    });
    expect(paths).toEqual(Object.fromEntries(fromExports));
  });
});
