import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCH_LEVELS, type LegateConfig, type MatchLevel, type Redaction, type Trajectory } from '../../src/index.js';
import type { Project } from '../../src/replay/projectConfig.js';
import { resolveReplaySettings, type GivenSettings } from '../../src/replay/replaySettings.js';

const base = { runner: { kind: 'code' as const }, cwd: '/work/app', env: {} };
const trajectoryWith = (fields: Partial<Trajectory>) => ({ agent: 'support', ...fields }) as Trajectory;
const projectWith = (config?: Partial<LegateConfig>): Project =>
  config === undefined
    ? { root: '/work/app' }
    : { root: '/work/app', configFile: '/work/app/legate.config.ts', config: { agents: {}, ...config } };
const resolveWith = (given: GivenSettings, project: Project, trajectory?: Trajectory) =>
  resolveReplaySettings({ ...base, given, project, ...(trajectory === undefined ? {} : { trajectory }) });

const level = fc.option(fc.constantFrom(...MATCH_LEVELS), { nil: undefined });

describe('resolveReplaySettings: given, then config, then file, then default', () => {
  it('takes the match level from the first layer that sets one', () => {
    fc.assert(
      fc.property(level, level, level, (given, config, file) => {
        const settings = resolveReplaySettings({
          ...base,
          given: given === undefined ? {} : { match: given },
          project: projectWith(config === undefined ? {} : { match: config }),
          trajectory: trajectoryWith(file === undefined ? {} : { match: file }),
        });
        expect(settings.match).toBe(given ?? config ?? file ?? 'exact');
      }),
    );
  });

  it('runs the tools the given choice says, else the config’s, else the safe ones', () => {
    expect(resolveWith({}, projectWith()).runTools).toBe('safe');
    expect(resolveWith({}, projectWith({ runTools: 'none' })).runTools).toBe('none');
    expect(resolveWith({ runTools: 'all' }, projectWith({ runTools: 'none' })).runTools).toBe('all');
    const named = { default: 'all', serve: ['send_email'] } as const;
    expect(resolveWith({}, projectWith({ runTools: named })).runTools).toEqual(named);
  });

  it('adds redactions and secrets up, the config’s first, each once', () => {
    const mine: Redaction = { pattern: /a/, placeholder: '[A]' };
    const theirs: Redaction = { pattern: /b/, placeholder: '[B]' };
    const project = projectWith({ redactions: [theirs], secrets: ['s1'] });
    const settings = resolveWith({ redactions: [mine, theirs], secrets: ['s2'] }, project);
    expect(settings.redactions).toEqual([theirs, mine]);
    expect(settings.secrets).toEqual(['s1', 's2']);
  });

  it('resolves a relative file and the folder against the project root, not the working directory', () => {
    const project = projectWith({ trajectories: 'recorded' });
    const settings = resolveReplaySettings({
      ...base,
      cwd: '/work/app/src',
      given: { file: 'recorded/a.yaml' },
      project,
    });
    expect(settings.file).toBe('/work/app/recorded/a.yaml');
    expect(settings.folder).toBe('/work/app/recorded');
    expect(resolveWith({ file: '/elsewhere/b.yaml' }, project).file).toBe('/elsewhere/b.yaml');
    expect(resolveWith({}, projectWith()).folder).toBe('/work/app/trajectories');
  });

  it('takes the re-record command given, else the config’s, else builds one from where the user is', () => {
    const rerecord = (file: string) => (file === 'corpus.yaml' ? 'npm run corpus' : undefined);
    const project = projectWith({ agents: { support: () => undefined as never }, rerecord });
    const at = (given: GivenSettings) =>
      resolveReplaySettings({ ...base, cwd: '/work/app/src', given, project, trajectory: trajectoryWith({}) }).rerecord;
    expect(at({ file: 'a.yaml', rerecord: 'make a' })).toBe('make a');
    expect(at({ file: '/work/app/src/corpus.yaml' })).toBe('npm run corpus');
    expect(at({ file: 'a.yaml' })).toBe('LEGATE_MODE=record npx legate replay ../a.yaml');
  });

  it('lets LEGATE_MODE win over the mode given in code, then CI, then the default', () => {
    const mode = (given: GivenSettings, env: NodeJS.ProcessEnv, defaultMode?: 'replay') =>
      resolveReplaySettings({
        ...base,
        env,
        given,
        project: projectWith(),
        ...(defaultMode === undefined ? {} : { defaultMode }),
      }).mode;
    expect(mode({ mode: 'replay' }, { LEGATE_MODE: 'record' })).toBe('record');
    expect(mode({ mode: 'record' }, { CI: 'true' })).toBe('record');
    expect(mode({}, { CI: 'true' })).toBe('replay');
    expect(mode({}, {})).toBe('auto');
    expect(mode({}, {}, 'replay')).toBe('replay');
    expect(mode({}, { LEGATE_MODE: '' }, 'replay')).toBe('replay');
  });
});

describe('MATCH_LEVELS, the one list', () => {
  it('is what the file format accepts', async () => {
    const { parseTrajectory } = await import('../../src/trajectory/parseTrajectory.js');
    const { readFileSync } = await import('node:fs');
    const text = readFileSync('trajectories/tool-loop.yaml', 'utf8');
    for (const match of MATCH_LEVELS) {
      const read = parseTrajectory(text.replace('request:\n', `match: ${match}\nrequest:\n`), 'x.yaml');
      expect(read.match).toBe(match satisfies MatchLevel);
    }
    const loose = text.replace('request:\n', 'match: loose\nrequest:\n');
    expect(() => parseTrajectory(loose, 'x.yaml')).toThrow(MATCH_LEVELS.join(', '));
  });
});

describe('the settings themselves are checked', () => {
  it('refuses a config whose match is not a level, and an unknown LEGATE_MODE, with stable codes', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadProject } = await import('../../src/index.js');
    const { resolveMode } = await import('../../src/recording/mode.js');
    const dir = mkdtempSync(join(tmpdir(), 'legate-config-'));
    try {
      writeFileSync(join(dir, 'legate.config.mjs'), `export default { agents: {}, match: 'loose' };\n`);
      const error = await loadProject({ cwd: dir }).catch((e: unknown) => e);
      const problem = 'match must be one of exact, structure, shape, but it is "loose".';
      expect(error).toMatchObject({ code: 'invalid_config', message: `${join(dir, 'legate.config.mjs')}: ${problem}` });
      // Another folder: the first config's module is cached under its path.
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(dir, 'other'));
      writeFileSync(
        join(dir, 'other', 'legate.config.mjs'),
        `export default { agents: {}, runTools: { run: ['a'], serve: ['a'] } };\n`,
      );
      const both = await loadProject({ cwd: join(dir, 'other') }).catch((e: unknown) => e);
      expect(both).toMatchObject({ code: 'invalid_config' });
      expect((both as Error).message).toMatch(/runTools names 'a' in both 'run' and 'serve': keep it in one\.$/);
      const badRunTools = () => resolveWith({ runTools: 'most' as never }, projectWith());
      expect(badRunTools).toThrow(
        expect.objectContaining({
          code: 'invalid_run_tools',
          message: "The 'runTools' option must be one of 'safe', 'all', 'none', but it was the string \"most\".",
        }),
      );
      const badMode = () => resolveMode(undefined, { LEGATE_MODE: 'replya' });
      expect(badMode).toThrow(expect.objectContaining({ code: 'invalid_recording_mode' }));
      const missing = await loadProject({ config: 'nowhere.config.ts', cwd: dir }).catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: 'config_not_found' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
