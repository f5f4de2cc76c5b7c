import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTriage } from '../../examples/desk/agent.js';
import {
  ConfigError,
  isMatchLevel,
  loadProject,
  MATCH_LEVELS,
  resolveReplaySettings,
  runTrajectory,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const CONFIG = `export default { agents: {}, trajectories: 'recorded' };\n`;

/** A package (package.json at `dir`) whose folders nest `depth` deep: dir/d1/d2/... */
function nested(dir: string, depth: number): string[] {
  const folders = [dir];
  for (let i = 1; i <= depth; i++) folders.push(join(folders[i - 1]!, `d${i}`));
  mkdirSync(folders[depth]!, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{}\n');
  return folders;
}

describe('loadProject: the project as legate finds it', () => {
  it('finds the nearest legate.config.* at or above cwd, up to the package root; the root is its folder', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
        async (depth, at) => {
          const folders = nested(join(tempDir(), `p${run++}`), depth);
          // -1 puts the config above the package root, where legate must not look.
          const configFolder =
            at === undefined ? undefined : at === -1 ? join(folders[0]!, '..') : folders[Math.min(at, depth)]!;
          const configFile =
            configFolder === undefined
              ? undefined
              : join(configFolder, at === -1 ? 'legate.config.js' : 'legate.config.mjs');
          if (configFile !== undefined) writeFileSync(configFile, CONFIG);
          const project = await loadProject({ cwd: folders[depth]! });
          if (configFile === undefined || at === -1) {
            expect(project).toEqual({ root: folders[0] });
          } else {
            expect(project).toEqual({
              root: configFolder,
              configFile,
              config: { agents: {}, trajectories: 'recorded' },
            });
            expect(resolveReplaySettings({ project, cwd: folders[depth]! }).folder).toBe(
              join(configFolder!, 'recorded'),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('takes a named config relative to cwd; config: false means none; requireConfig says what to write', async () => {
    const [root, sub] = nested(tempDir(), 1);
    writeFileSync(join(root!, 'legate.config.mjs'), CONFIG);
    const named = await loadProject({ cwd: sub!, config: '../legate.config.mjs' });
    expect(named.configFile).toBe(join(root!, 'legate.config.mjs'));
    expect(await loadProject({ cwd: sub!, config: false })).toEqual({ root });
    const none = await loadProject({ cwd: sub!, config: false, requireConfig: true }).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(ConfigError);
    expect(none).toMatchObject({
      code: 'config_not_found',
      message: expect.stringContaining(`export default defineConfig({ agents: {`),
    });
    const missing = await loadProject({ cwd: sub!, config: 'nowhere.config.ts' }).catch((e: unknown) => e);
    expect(missing).toMatchObject({
      code: 'config_not_found',
      message: 'nowhere.config.ts does not exist; check the path (a relative one is resolved from the working folder).',
    });
  });
});

describe('resolveReplaySettings, public', () => {
  it('needs only the project: nothing given, the working folder and the runner by default', () => {
    const settings = resolveReplaySettings({ project: { root: '/work/app' }, given: { file: 'a b.yaml' } });
    expect(settings.folder).toBe('/work/app/trajectories');
    expect(settings.file).toBe('/work/app/a b.yaml');
    // Under vitest, a runTrajectory call is re-recorded by running the tests with LEGATE_MODE=record.
    expect(settings.rerecord).toBe('LEGATE_MODE=record npx vitest run');
  });

  it('isMatchLevel tells a level from anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...MATCH_LEVELS), fc.anything()), (value) => {
        expect(isMatchLevel(value)).toBe((MATCH_LEVELS as readonly unknown[]).includes(value));
      }),
    );
  });
});

describe('runTrajectory with a loaded project, a cwd and a runner: a file run as legate replay runs it', () => {
  it('resolves the file against the project root and gives the legate replay command to re-record it', async () => {
    const dir = tempDir();
    const cwd = join(dir, 'elsewhere');
    mkdirSync(cwd);
    const project = {
      root: dir,
      configFile: join(dir, 'legate.config.ts'),
      config: { agents: { triage: createTriage } },
    };
    // `config` names no file: with a project given it is not looked at.
    const options = {
      project,
      cwd,
      config: 'nowhere.config.ts',
      runner: { kind: 'cli' as const },
      mode: 'replay' as const,
    };
    const error = await runTrajectory({ ...options, file: 'recorded/missing.yaml', agent: createTriage }).catch(
      (e: unknown) => e,
    );
    const shown = relative(cwd, join(dir, 'recorded', 'missing.yaml'));
    expect(error).toMatchObject({ message: expect.stringContaining(`LEGATE_MODE=record npx legate replay ${shown}`) });
  });

  it('replays a corpus file with the project legate loads from the repository', async () => {
    const project = await loadProject({ requireConfig: true });
    const file = 'trajectories/handoff-to-billing.yaml';
    const run = await runTrajectory({
      project,
      runner: { kind: 'cli' },
      mode: 'replay',
      file,
      agent: project.config.agents!.triage!,
    });
    expect(run).toMatchObject({ mode: 'replay', file: join(project.root, file) });
  });
});

describe('a config without agents', () => {
  it('loads without agents (a project that only intercepts other code needs none); bad agents refused', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'legate.config.mjs'), `export default { redactions: [{ pattern: /ACCT-\\d+/ }] };\n`);
    const project = await loadProject({ cwd: root });
    expect(project.config?.agents).toBeUndefined();
    expect(project.config?.redactions).toHaveLength(1);
    for (const [agents, shown] of [
      ['5', '5'],
      ['[]', '[]'],
      ['null', 'null'],
    ]) {
      const other = join(root, `agents-${shown}`);
      mkdirSync(other);
      writeFileSync(join(other, 'legate.config.mjs'), `export default { agents: ${agents} };\n`);
      await expect(loadProject({ cwd: other })).rejects.toMatchObject({
        code: 'invalid_config',
        message: expect.stringContaining(
          `agents must map names to factories { name: (transport) => agent }, but it is ${shown}.`,
        ),
      });
    }
  });
});
