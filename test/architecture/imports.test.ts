import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../support/tempDir.js';
import { importGraph, importsOf } from './importGraph.js';
import { circlesOf, upwardArrowsOf } from './importProblems.js';
import { LAYERS, layerOf, reachableLayers } from './layers.js';

/**
 * The circles of files and the imports against the layers that exist today while work under way removes them, each
 * with who removes it. Not a list of exceptions: the test fails when one of them is gone (take it out), so the list
 * only shrinks; anything else is a failure.
 */
const PENDING: { circles: { files: string[]; by: string }[]; arrows: { arrow: string; by: string }[] } = {
  circles: [
    {
      files: [
        'Agent.ts',
        'agentGraph.ts',
        'agentOptions.ts',
        'agentStream.ts',
        'resume.ts',
        'runLoop.ts',
        'runTools.ts',
      ]
        .map((f) => `src/runtime/${f}`)
        .sort(),
      by: 'the runtime split (issue 33)',
    },
    {
      // AgentResult, ToolCall and AgentEvent hold each other, as do AgentResult, Suspension and RunState.
      files: ['agentResult.ts', 'events.ts', 'runState.ts', 'suspension.ts'].map((f) => `src/runtime/${f}`),
      by: "the runtime split (issue 33: the runtime's result types)",
    },
  ],
  arrows: [],
};

const edges = importGraph('.', ['src', 'cli']);

describe('the imports of src/ and cli/', () => {
  it('form no circle of files, but those being removed', () => {
    const circles = circlesOf(edges);
    const key = (files: readonly string[]) => files.join(' ');
    const pending = new Set(PENDING.circles.map((circle) => key(circle.files)));
    const found = new Set(circles.map((circle) => key(circle.files)));
    const unexpected = circles.filter((circle) => !pending.has(key(circle.files))).map((circle) => circle.text);
    expect(unexpected.join('\n\n'), 'circles of files (a file may not import itself, however far round)').toBe('');
    const gone = PENDING.circles.filter((circle) => !found.has(key(circle.files)));
    expect(gone, 'circles listed as PENDING that no longer exist: take them out of the list').toEqual([]);
  });

  it('import no layer that their own may not, but those being removed', () => {
    const arrows = upwardArrowsOf(edges, LAYERS);
    const pending = new Set(PENDING.arrows.map(({ arrow }) => arrow));
    const unexpected = arrows.filter(({ arrow }) => !pending.has(arrow)).map(({ text }) => text);
    expect(unexpected.join('\n'), 'imports the table of layers (test/architecture/layers.ts) does not allow').toBe('');
    const gone = PENDING.arrows.filter(({ arrow }) => !arrows.some((found) => found.arrow === arrow));
    expect(gone, 'imports listed as PENDING that no longer exist: take them out of the list').toEqual([]);
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
  const tempDir = useTempDir();
  const tree = (files: Record<string, string>): string => {
    const root = tempDir();
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

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

  it('reads import and export declarations, not text that looks like one', () => {
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
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './one.js', names: ['def', 'a', 'C'] },
      { specifier: './two.js', names: ['*'] },
      { specifier: './three.js', names: [] },
      { specifier: './four.js', names: ['d', 'E'] },
      { specifier: './five.js', names: ['*'] },
      { specifier: './six.js', names: ['F'] },
      { specifier: './eleven.js', names: ['*'] },
    ]);
  });
});
