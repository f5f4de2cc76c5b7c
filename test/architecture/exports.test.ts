import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportsOf } from './exportsOf.js';
import { importGraph, tsFiles } from './importGraph.js';
import { useSourceTree } from './sourceTree.js';
import { entryPointsOf, unusedExportsOf } from './unusedExports.js';

/** Every folder whose files may import legate's: a name one of them imports is in use. */
const IMPORTERS = ['src', 'cli', 'test', 'bench', 'scripts', 'examples'];

describe('the exports of src/ and cli/', () => {
  it('are each imported by another file, or are an entry point of package.json', () => {
    const entries = entryPointsOf(readFileSync('package.json', 'utf8'));
    expect([...entries]).toContain('src/index.ts');
    const files = ['src', 'cli'].flatMap((folder) => tsFiles('.', folder));
    const unused = unusedExportsOf('.', files, importGraph('.', IMPORTERS), entries);
    expect(
      unused.map(({ file, names }) => `${file}: ${names.join(', ')}`).join('\n'),
      'exports no other file imports: drop the `export` (and the declaration, if nothing in its file uses it either)',
    ).toBe('');
  });
});

describe('the export checker', () => {
  const tree = useSourceTree();

  it('finds the names no other file imports, through re-exports, and takes an entry point at its word', () => {
    const root = tree({
      'package.json': JSON.stringify({ exports: { '.': { default: './dist/src/index.js' }, './x': './schema.json' } }),
      'src/index.ts': "export { used } from './lib/used.js';\nexport const own = 1;\n",
      'src/lib/used.ts': 'export const used = 1;\nexport const unused = 2;\nexport type Unused = string;\n',
      'src/lib/whole.ts': 'export const a = 1;\nexport function b() {}\n',
      'src/lib/chain.ts': "export { unused as again } from './used.js';\n",
      'src/lib/self.ts': "export const mine = 1;\nexport { mine as again } from './self.js';\n",
      'src/lib/fallback.ts': 'export default 1;\nexport interface Loaded {}\n',
      'test/lib.test.ts':
        "import * as whole from '../src/lib/whole.js';\nimport fallback from '../src/lib/fallback.js';\n" +
        "type L = typeof import('../src/lib/fallback.js').Loaded;\n",
    });
    const entries = entryPointsOf(readFileSync(`${root}/package.json`, 'utf8'));
    expect([...entries]).toEqual(['src/index.ts']);
    const unused = unusedExportsOf(root, tsFiles(root, 'src'), importGraph(root, ['src', 'test']), entries);
    expect(unused).toEqual([
      { file: 'src/lib/chain.ts', names: ['again'] },
      { file: 'src/lib/self.ts', names: ['mine', 'again'] },
      { file: 'src/lib/used.ts', names: ['Unused'] },
    ]);
  });

  it('reads the names a file declares, lists and re-exports, and what it re-exports whole', () => {
    const source = [
      'export const a = 1;',
      'export async function b() {}',
      'export function* c() {}',
      'export abstract class D {}',
      'export declare const enum E {}',
      'export interface F {}',
      'export type G<T> = T;',
      'export declare namespace h {}',
      'export default 1;',
      'export { i, type J as K, l as default2 };',
      "export type { M } from './m.js';",
      "export { n as o } from './n.js';",
      "export * from './p.js';",
      "export type * from './q.js';",
      "export * as r from './r.js';",
      "const text = 'export const s = 1';",
      '// export const t = 1;',
      'object.export = 2;',
    ].join('\n');
    const { names, whole } = exportsOf(source);
    expect(names.map(({ name, kind }) => `${kind} ${name}`)).toEqual([
      'value a',
      'value b',
      'value c',
      'value D',
      'value E',
      'type F',
      'type G',
      'value h',
      'value default',
      'value i',
      'type K',
      'value default2',
      'type M',
      'value o',
      'value r',
    ]);
    expect(whole).toEqual([
      { specifier: './p.js', typeOnly: false },
      { specifier: './q.js', typeOnly: true },
    ]);
  });
});
