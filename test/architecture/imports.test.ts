import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importGraph, importsOf } from './importGraph.js';
import { circlesOf, upwardArrowsOf } from './importProblems.js';
import { LAYERS, layerOf, reachableLayers } from './layers.js';
import { useSourceTree } from './sourceTree.js';

const edges = importGraph('.', ['src', 'cli']);

describe('the imports of src/ and cli/', () => {
  it('form no circle of files', () => {
    const circles = circlesOf(edges).map((circle) => circle.text);
    expect(circles.join('\n\n'), 'circles of files (a file may not import itself, however far round)').toBe('');
  });

  it('import no layer that their own may not', () => {
    const arrows = upwardArrowsOf(edges, LAYERS).map(({ text }) => text);
    expect(arrows.join('\n'), 'imports the table of layers (test/architecture/layers.ts) does not allow').toBe('');
  });

  it('are read whole: static, type-only, re-exported and loaded on demand', () => {
    const names = (from: string, to: string) => edges.find((edge) => edge.from === from && edge.to === to)?.names;
    expect(names('src/guard/audit/auditTrajectory.ts', 'src/guard/audit/auditTimeline.ts')).toEqual(['describeAudit']);
    expect(names('src/guard/audit/auditTimeline.ts', 'src/guard/audit/auditReport.ts')).toContain('AuditFinding');
    expect(names('src/index.ts', 'src/tools/index.ts')).toEqual(['*']);
    expect(names('cli/main.ts', 'cli/commands/demo.ts')).toEqual(['*']);
  });

  it('are all in a layer, and the layers point one way', () => {
    const files = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))];
    expect(files.filter((file) => layerOf(file) === undefined)).toEqual([]);
    const reach = reachableLayers();
    expect(Object.keys(LAYERS).filter((layer) => reach.get(layer)!.has(layer))).toEqual([]);
    const named = Object.values(LAYERS).flat();
    expect(named.filter((layer) => !(layer in LAYERS))).toEqual([]);
  });
});

describe('ARCHITECTURE.md', () => {
  const page = readFileSync('ARCHITECTURE.md', 'utf8');
  const section = (title: string) => page.split(/^## /m).find((part) => part.startsWith(`${title}\n`)) ?? '';
  const rows = (title: string) =>
    section(title)
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .slice(2) // the header and its rule
      .map((line) => line.split(' | '));
  const named = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, name]) => name!.replace(/\/$/, ''));

  it('states the table of layers the test holds the code to, row by row', () => {
    const stated = rows('Layers').map(([layer, , imports]) => [named(layer!)[0], named(imports!)]);
    expect(stated).toEqual(Object.entries(LAYERS).map(([layer, imports]) => [layer, [...imports]]));
  });

  it('names only files and folders that exist', () => {
    const paths = rows('Where things are').flatMap(([, where]) =>
      named(where!).filter((name) => /^(src|cli)\//.test(name)),
    );
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !existsSync(path.replace('<verb>', 'replay')))).toEqual([]);
  });
});

describe('the import checker', () => {
  const tree = useSourceTree();

  it('finds a circle (type-only imports count), a file importing itself, and an import from a lower layer', () => {
    const root = tree({
      'src/low/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'src/low/b.ts': "import { type A } from './a.js';\nexport interface B { a?: A }\n",
      'src/low/self.ts': "export const x = 1;\nexport { x as y } from './self.js';\n",
      'src/low/up.ts':
        "// import { h } from '../high/h.js';\nconst text = `import { h } from '../high/h.js'`;\n" +
        "export const load = () => import('../high/h.js');\n",
      'src/high/h.ts': "import type { A } from '../low/a.js';\nexport const h: A = {};\n",
    });
    const found = importGraph(root, ['src']);
    const circles = circlesOf(found);
    expect(circles.map((circle) => circle.files)).toEqual([['src/low/a.ts', 'src/low/b.ts'], ['src/low/self.ts']]);
    expect(circles[0]!.text.split('\n')).toEqual([
      'src/low/a.ts -> src/low/b.ts -> src/low/a.ts',
      '  src/low/a.ts -> src/low/b.ts: B',
      '  src/low/b.ts -> src/low/a.ts: A',
    ]);
    const arrows = upwardArrowsOf(found, { low: [], high: ['low'] });
    expect(arrows.map(({ text }) => text)).toEqual(['src/low/up.ts -> src/high/h.ts: * (low may not import high)']);
    expect(upwardArrowsOf(found, { low: [] }).map(({ arrow }) => arrow)).toContain('src/high/h.ts -> src/low/a.ts');
  });

  it('reads import and export declarations and the names a loaded module gives, not text that looks like one', () => {
    const source = [
      "import def, { a as b, type C } from './one.js';",
      "import * as all from './two.js';",
      "import './three.js';",
      "export { d, type E } from './four.js';",
      "export * from './five.js';",
      "export type { F } from './six.js';",
      'export { local };',
      "const pattern = /from '.\\/seven.js'/;",
      'const text = \'import x from "./eight.js"\';',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as the reader reads it.
      "const template = `${import.meta.url} import('./nine.js')`;",
      "/* import z from './ten.js'; */",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as the reader reads it.
      'const later = import(`./${name}.js`);',
      "export default import('./eleven.js');",
      "const { g, h: renamed } = await import('./twelve.js');",
      "type I = typeof import('./thirteen.js').i;",
      "const { j, ...rest } = await import('./fourteen.js');",
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './one.js', names: ['default', 'a', 'C'] },
      { specifier: './two.js', names: ['*'] },
      { specifier: './three.js', names: [] },
      { specifier: './four.js', names: ['d', 'E'] },
      { specifier: './five.js', names: ['*'] },
      { specifier: './six.js', names: ['F'] },
      { specifier: './eleven.js', names: ['*'] },
      { specifier: './twelve.js', names: ['g', 'h'] },
      { specifier: './thirteen.js', names: ['i'] },
      { specifier: './fourteen.js', names: ['j', '*'] },
    ]);
  });
});
