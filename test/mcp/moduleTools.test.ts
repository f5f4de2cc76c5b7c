// The tools a module offers (src/tools/moduleTools.ts), read one way by `legate mcp serve` and `legate fuzz`.
// (Here, not in test/tools: it imports modules through tsx, which the mutation run need not do per mutant.)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { findFuzzTargets } from '../../src/fuzz/index.js';
import { loadServeModule } from '../../src/mcp/index.js';
import { moduleTools } from '../../src/tools/moduleTools.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const source = resolve('src/index.ts');

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, input: { type: 'object' }, run: () => name });
const TOOLS = ['alpha', 'beta', 'gamma', 'delta'].map(tool);
/** Exports that are not tools: what a module holds beside them. */
const OTHER = fc.oneof(fc.constant(undefined), fc.integer(), fc.string(), fc.constant({ agents: {} }), fc.constant([]));
const exportName = fc.stringMatching(/^[a-z][a-zA-Z]{0,8}$/).filter((name) => name !== 'tools' && name !== 'default');

/** A module exporting `source`'s text, in a folder of its own. */
function module(text: string): string {
  const folder = tempDir();
  writeFileSync(join(folder, 'tools.ts'), `import { defineTool } from '${source}';\n${text}`);
  return folder;
}

const declared = (name: string) =>
  `defineTool({ name: '${name}', description: 'The ${name} tool.', input: { type: 'object' }, run: () => '${name}' })`;

describe('moduleTools', () => {
  it("with no 'tools' and no default export: every export that is a tool, in order, nothing else", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(exportName, fc.oneof(fc.constantFrom(...TOOLS), OTHER)), { selector: ([n]) => n }),
        (entries) => {
          const exports = Object.fromEntries(entries);
          const tools = entries.map(([, value]) => value).filter((value) => TOOLS.includes(value as never));
          expect(moduleTools(exports)).toEqual(tools.length === 0 ? undefined : tools);
        },
      ),
    );
  });

  it("a 'tools' export wins, as it is; else a default export of tools; a config's default export holds none", () => {
    fc.assert(
      fc.property(fc.dictionary(exportName, fc.oneof(fc.constantFrom(...TOOLS), OTHER)), (others) => {
        const listed = [TOOLS[0], 7];
        expect(moduleTools({ ...others, tools: listed, default: [TOOLS[1]] })).toBe(listed);
        expect(moduleTools({ ...others, tools: { a: TOOLS[2] } })).toEqual([TOOLS[2]]);
        expect(moduleTools({ ...others, default: [TOOLS[1]] })).toEqual([TOOLS[1]]);
        expect(moduleTools({ ...others, default: TOOLS[3] })).toEqual([TOOLS[3]]);
        expect(moduleTools({ ...others, default: { a: TOOLS[1], b: TOOLS[2] } })).toEqual([TOOLS[1], TOOLS[2]]);
        const config = { agents: {}, redactions: [] };
        expect(moduleTools({ ...others, default: config })).toEqual(moduleTools(others));
      }),
    );
  });
});

describe('legate mcp serve and legate fuzz read a module alike', () => {
  it('a module that exports each tool on its own: served, and fuzzed, every one', async () => {
    const folder = module(
      `export const lookup = ${declared('lookup')};\nexport const forecast = ${declared('forecast')};\n` +
        'export const LIMIT = 3;\n',
    );
    const served = await loadServeModule('tools.ts', { cwd: folder });
    expect(served.tools.map((t) => t.name)).toEqual(['lookup', 'forecast']);
    const fuzzed = await findFuzzTargets(['tools.ts'], { cwd: folder });
    expect(fuzzed.tools.map((t) => t.name)).toEqual(['lookup', 'forecast']);
  });

  it("a module with a 'tools' export: that list, for both", async () => {
    const folder = module(
      `const hidden = ${declared('hidden')};\nexport const shown = ${declared('shown')};\n` +
        'export const tools = [shown, hidden];\n',
    );
    expect((await loadServeModule('tools.ts', { cwd: folder })).tools.map((t) => t.name)).toEqual(['shown', 'hidden']);
    expect((await findFuzzTargets(['tools.ts'], { cwd: folder })).tools.map((t) => t.name)).toEqual([
      'shown',
      'hidden',
    ]);
  });

  it('a module offering no tool is refused by serve, saying the three ways to offer them', async () => {
    const folder = module('export const LIMIT = 3;\n');
    await expect(loadServeModule('tools.ts', { cwd: folder })).rejects.toThrow(
      "tools.ts exports no tools to serve: export them as 'tools' (export const tools = [lookup, forecast]), as its " +
        'default export (a list or a record of tools made with defineTool), or each tool as an export of its own.',
    );
  });
});
