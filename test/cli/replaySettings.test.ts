import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenarios } from '../../examples/scenarios.js';
import { runTrajectory } from '../../src/index.js';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { runLegate } from '../support/runLegate.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');
let projects = 0;
const SYSTEM =
  "  system: You answer customers' questions about their orders. Look orders up; never guess their status.\n";

/** A temporary project: a config (with `extra` settings) that takes its agents from this repository's. */
function project(extra = ''): string {
  const dir = join(tempDir(), `project-${projects++}`);
  mkdirSync(join(dir, 'trajectories'), { recursive: true });
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\n` +
      `import base from '${root}/legate.config.ts';\n` +
      `export default defineConfig({ agents: base.agents${extra} });\n`,
  );
  return dir;
}

/** A copy of tool-loop.yaml whose recorded system prompt is not today's, with `header` lines added after `model:`. */
function promptChanged(dir: string, header = ''): string {
  const text = readFileSync('trajectories/tool-loop.yaml', 'utf8');
  expect(text).toContain(SYSTEM);
  const changed = text
    .replace(SYSTEM, '  system: You answered questions about orders, once.\n')
    .replace('model: claude-haiku-5-5\nrequest:', `model: claude-haiku-5-5\n${header}request:`);
  writeFileSync(join(dir, 'trajectories/tool-loop.yaml'), changed);
  return 'trajectories/tool-loop.yaml';
}

/**
 * `legate replay` in this process, from `dir` (as the command's own `main` runs it): the precedence of settings
 * needs no process of its own; the tests below, which find configs from other folders, spawn the real command.
 */
async function replayInProcess(args: string[], dir: string): Promise<{ status: number; stdout: string }> {
  const io = captureIo(dir);
  const status = await main(['replay', ...args], io);
  return { status, stdout: io.stdout.join('\n') };
}

describe('legate replay: the match level, flag over config over file over default', () => {
  it.each(['structure', 'shape'])(
    "replays a file at its own 'match: %s', and --match exact fails it",
    async (level) => {
      const dir = project();
      const file = promptChanged(dir, `match: ${level}\n`);
      const own = await replayInProcess([file], dir);
      expect(own.stdout).toContain(`✓ ${file}`);
      expect(own.status).toBe(0);
      const exact = await replayInProcess([file, '--match', 'exact'], dir);
      expect(exact.stdout).toContain(`✗ ${file}`);
      expect(exact.stdout).toContain('the request for turn 1 differs from the recording at system.');
      expect(exact.status).toBe(1);
    },
    60_000,
  );

  it("applies the config's match when neither the command line nor the file sets one", async () => {
    const strict = project();
    const file = promptChanged(strict);
    expect((await replayInProcess([file], strict)).status).toBe(1); // the default is exact
    const loose = project(`, match: 'shape'`);
    promptChanged(loose);
    const run = await replayInProcess([file], loose);
    expect(run.stdout).toContain(`✓ ${file}`);
    expect(run.status).toBe(0);
  }, 60_000);

  it("lets the config's match win over the file's own", async () => {
    const dir = project(`, match: 'exact'`);
    const file = promptChanged(dir, 'match: shape\n');
    const run = await replayInProcess([file], dir);
    expect(run.stdout).toContain('the request for turn 1 differs from the recording at system.');
    expect(run.status).toBe(1);
  }, 60_000);
});

describe('legate replay: settings from the config, wherever it runs', () => {
  it("replays a file runTrajectory recorded with the config's redactions, with nothing repeated", async () => {
    const dir = project(`, redactions: [{ pattern: /shipped/, placeholder: '[STATUS]' }]`);
    const scenario = scenarios.find((s) => s.name === 'tool-loop')!;
    const run = await runTrajectory({
      file: 'trajectories/redacted.yaml', // relative: against the config's folder, not the working directory
      config: join(dir, 'legate.config.ts'),
      agent: scenario.factory,
      input: scenario.input,
      mode: 'record',
      transport: scenario.model,
      report: false,
    });
    expect(run.file).toBe(join(dir, 'trajectories/redacted.yaml'));
    const written = readFileSync(join(dir, 'trajectories/redacted.yaml'), 'utf8');
    expect(written).toContain('[STATUS]');
    expect(written).not.toContain('shipped');
    const replay = runLegate(['replay', 'trajectories/redacted.yaml'], dir);
    expect(replay.stdout).toContain('✓ trajectories/redacted.yaml');
    expect(replay.status).toBe(0);
  }, 60_000);

  it('runTrajectory started from a subfolder finds the config above it and writes the file next to the config', () => {
    const dir = project(`, redactions: [{ pattern: /shipped/, placeholder: '[STATUS]' }]`);
    const sub = join(dir, 'scripts/nested');
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      join(sub, 'record.mts'),
      `import { runTrajectory } from '${root}/src/index.ts';\n` +
        `import { scenarios } from '${root}/examples/scenarios.ts';\n` +
        `const scenario = scenarios.find((s) => s.name === 'tool-loop')!;\n` +
        `const run = await runTrajectory({ file: 'trajectories/found.yaml', agent: scenario.factory, input: ` +
        'scenario.input, ' +
        `mode: 'record', transport: scenario.model, report: false });\n` +
        `console.log(run.file);\n`,
    );
    const loader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const env = { ...process.env, LEGATE_MODE: '', VITEST: '' };
    const run = spawnSync(process.execPath, ['--import', loader, 'record.mts'], { cwd: sub, encoding: 'utf8', env });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(join(dir, 'trajectories/found.yaml'));
    expect(readFileSync(join(dir, 'trajectories/found.yaml'), 'utf8')).toContain('[STATUS]');
    expect(runLegate(['replay', 'found.yaml'], join(dir, 'trajectories')).status).toBe(0);
  }, 60_000);

  it("from a subfolder, finds the config above and replays the config's trajectory folder", () => {
    const dir = project(`, trajectories: 'recorded'`);
    cpSync('trajectories/tool-loop.yaml', join(dir, 'recorded/tool-loop.yaml'));
    const sub = join(dir, 'src/deeper');
    mkdirSync(sub, { recursive: true });
    const replay = runLegate(['replay'], sub);
    expect(replay.stdout).toContain('✓ ../../recorded/tool-loop.yaml');
    expect(replay.stdout).toContain('1 replayed: 1 passed, 0 failed');
    expect(replay.status).toBe(0);
    const validate = runLegate(['validate'], sub);
    expect(validate.stdout).toContain('✓ ../../recorded/tool-loop.yaml');
    expect(validate.status).toBe(0);
  }, 60_000);
});

describe('the re-record command legate prints', () => {
  it('is the legate replay command that works, from where the user is', () => {
    const dir = project();
    promptChanged(dir);
    const sub = join(dir, 'src');
    mkdirSync(sub);
    const run = runLegate(['replay', '../trajectories/tool-loop.yaml'], sub);
    const command = 'LEGATE_MODE=record npx legate replay ../trajectories/tool-loop.yaml';
    expect(run.stdout).toContain(`If the change is intended, re-record the trajectory: ${command}`);
    expect(run.status).toBe(1);
  }, 60_000);

  it('names the config when it is not the one legate finds by itself', () => {
    const dir = project();
    promptChanged(dir);
    const elsewhere = join(dir, 'config');
    mkdirSync(elsewhere);
    cpSync(join(dir, 'legate.config.ts'), join(elsewhere, 'custom.config.ts'));
    const run = runLegate(['replay', 'trajectories/tool-loop.yaml', '--config', 'config/custom.config.ts'], dir);
    const command = 'LEGATE_MODE=record npx legate replay trajectories/tool-loop.yaml --config config/custom.config.ts';
    expect(run.stdout).toContain(`re-record the trajectory: ${command}`);
  }, 60_000);
});
