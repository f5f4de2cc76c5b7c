import { describe, expect, it } from 'vitest';
import { builtLegate } from '../support/builtPackage.js';
import { loadedModules } from '../support/loadedModules.js';

// What starting costs is what is loaded: `legate --version` reads its arguments before it loads any verb or the
// library, and `import('legate')` leaves the Anthropic SDK to the first send, fast-check to legate/fuzz and re2js to
// the first pattern that needs it. The subject is a process of its own, the built package as users run it, with
// every module it loads written down (test/support/loadedModules.ts). Nothing here is timed.

/** The package a module belongs to (`zod`), or '' for legate's own and Node's. */
const packageOf = (module: string) => (module.startsWith('node:') ? '' : (/^([^:]+):/.exec(module)?.[1] ?? ''));
const packages = (modules: string[]) => [...new Set(modules.map(packageOf).filter((name) => name !== ''))].sort();
/** What the brief of this check names: the Anthropic SDK (its one-file version aside), fast-check and re2js. */
const heavy = (modules: string[]) =>
  modules.filter(
    (module) =>
      ['@anthropic-ai/sdk', 'fast-check', 're2js'].includes(packageOf(module)) &&
      module !== '@anthropic-ai/sdk:version.mjs',
  );
/**
 * legate's command verbs: each verb's own code, and the replay machinery behind `legate replay`. Said of the sources
 * in the files loaded (LoadedModules.sources): a bundled file that holds another verb's code counts as loading it.
 */
const verbs = (sources: string[]) => sources.filter((source) => /^cli\/(commands|replay)\//.test(source));
const library = (sources: string[]) => sources.filter((source) => source.startsWith('src/'));

describe('starting the legate command', () => {
  it.each([
    [['--version'], 0],
    [['-v'], 0],
    [['--help'], 0],
    [[], 1],
    [['replya'], 2],
  ])('legate %j loads no verb, no package and of the library only what it needs (exit %i)', async (args, exit) => {
    const run = await loadedModules([await builtLegate(), ...args]);
    expect(run.status).toBe(exit);
    expect(verbs(run.sources)).toEqual([]);
    // Not the SDK, fast-check, re2js, zod, yaml, ...: no package at all.
    expect(packages(run.modules)).toEqual([]);
    // The version, the refusals main tells from bugs, and the TypeScript loader's switch (which loads nothing).
    expect(library(run.sources)).toEqual([
      'src/errors/LegateError.ts',
      'src/errors/MissingPeerDependencyError.ts',
      'src/files/ModuleImportError.ts',
      'src/files/importModule.ts',
      'src/files/packageRoot.ts',
      'src/version.ts',
    ]);
  });

  it("legate show --help loads that verb's code and no other verb's", async () => {
    const run = await loadedModules([await builtLegate(), 'show', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^legate show <file\.\.\.>/);
    expect(verbs(run.sources)).toEqual(['cli/commands/show.ts']);
    expect(heavy(run.modules)).toEqual([]);
  });
});

describe('legate replay', () => {
  it('replays a file without loading OpenTelemetry when no application registered it, nor other verbs', async () => {
    const run = await loadedModules([await builtLegate(), 'replay', 'trajectories/tool-loop.yaml']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^✓ trajectories\/tool-loop\.yaml /m);
    expect(run.status).toBe(0);
    expect(packages(run.modules)).not.toContain('@opentelemetry/api');
    expect(heavy(run.modules)).toEqual([]);
    expect(verbs(run.sources).filter((source) => !/^cli\/(commands\/replay|replay\/)/.test(source))).toEqual([]);
  });
});

describe("import('legate')", () => {
  it('loads none of the Anthropic SDK but its version, fast-check, re2js, yaml, OpenTelemetry', async () => {
    await builtLegate();
    const run = await loadedModules(['--input-type=module', '-e', "await import('legate');"]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(heavy(run.modules)).toEqual([]);
    // The SDK's version, which a recording writes in its header, is one file of its own.
    const sdk = run.modules.filter((module) => packageOf(module) === '@anthropic-ai/sdk');
    expect(sdk).toEqual(['@anthropic-ai/sdk:version.mjs']);
    // Loaded on first need: fast-check by legate/fuzz, re2js by a pattern V8 cannot run in linear time, yaml to write
    // a trajectory or read one legate did not write, OpenTelemetry when an agent first runs.
    const lazy = ['fast-check', 're2js', 'yaml', '@opentelemetry/api'];
    expect(packages(run.modules).filter((name) => lazy.includes(name))).toEqual([]);
    // zod, which declares the trajectory format, is bundled into legate's own chunks (scripts/build.mjs): none of its
    // hundred modules is loaded as installed.
    expect(packages(run.modules)).toEqual(['@anthropic-ai/sdk']);
  });

  it('is seen loading the SDK imported, re2js and OpenTelemetry required (the checks above can fail)', async () => {
    await builtLegate();
    const code =
      "await import('@anthropic-ai/sdk'); const { createRequire } = await import('node:module'); " +
      "const require = createRequire(process.cwd() + '/'); require('re2js'); require('@opentelemetry/api');";
    const run = await loadedModules(['--input-type=module', '-e', code]);
    expect(run.stderr).toBe('');
    expect(packages(run.modules)).toEqual(expect.arrayContaining(['@anthropic-ai/sdk', '@opentelemetry/api', 're2js']));
    expect(run.modules).toContain('@anthropic-ai/sdk:index.mjs');
    expect(heavy(run.modules).length).toBeGreaterThan(100);
  });
});
