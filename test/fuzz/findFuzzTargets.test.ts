import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutFolder, FindingOutputError, findFuzzTargets } from '../../src/fuzz/index.js';
import { loadProject } from '../../src/index.js';

describe('findFuzzTargets: what legate fuzz fuzzes in a module', () => {
  it('takes exported tools, shaped-like-a-tool exports included, relative to cwd', async () => {
    const targets = await findFuzzTargets(['brokenFuzzTargets.ts'], {
      cwd: join(import.meta.dirname, '..', 'support'),
    });
    expect(targets.tools.map((tool) => tool.name).sort()).toEqual(['coercing', 'sound']);
    expect([...targets.agents.keys()]).toEqual([]);
    expect(targets).toMatchObject({ redactions: [], secrets: [] });
  });

  it("takes a config's agents and every tool they reach, each tool once", async () => {
    const project = await loadProject({ requireConfig: true });
    const targets = await findFuzzTargets([project.configFile]);
    expect([...targets.agents.keys()].sort()).toEqual(Object.keys(project.config.agents ?? {}).sort());
    const names = targets.tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('send_payment');
  });
});

describe('checkOutFolder', () => {
  it('refuses a folder that is a file, before anything is fuzzed', () => {
    expect(() => checkOutFolder(import.meta.filename)).toThrow(FindingOutputError);
    expect(() => checkOutFolder(join(import.meta.dirname, 'not-yet'))).not.toThrow();
  });
});
