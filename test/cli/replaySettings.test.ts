import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarios } from '../../examples/scenarios.js';
import { runTrajectory } from '../../src/index.js';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { runBuilt, runLegate } from '../support/builtPackage.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');
let projects = 0;
const SYSTEM =
  "  system: You answer customers' questions about their orders. Look orders up; never guess their status.\n";

/**
 * A temporary project: a config (with `extra` settings) that takes its agents from this repository's; for a process
 * of its own (`built`), from the built package, as a user's config imports the installed legate.
 */
function project(extra = '', from: 'source' | 'built' = 'source'): string {
  const dir = join(tempDir(), `project-${projects++}`);
  mkdirSync(join(dir, 'trajectories'), { recursive: true });
  const imports =
    from === 'source'
      ? `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n`
      : `import { defineConfig } from '${root}/dist/src/index.js';\n` +
        `import { createOrderDesk } from '${root}/dist/examples/orders/agent.js';\n` +
        'const base = { agents: { order_desk: createOrderDesk } };\n';
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `${imports}export default defineConfig({ agents: base.agents${extra} });\n`,
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
 * `legate replay` in this process, from `dir` (as the command's own `main` runs it, `dir` its working folder): finding
 * the config and the precedence of settings need no process of its own. What does (a script's own working folder) is
 * run as a process below, with the built package.
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
    const replay = await replayInProcess(['trajectories/redacted.yaml'], dir);
    expect(replay.stdout).toContain('✓ trajectories/redacted.yaml');
    expect(replay.status).toBe(0);
  }, 60_000);

  // A process of its own: runTrajectory's default folder is the process's working folder.
  it('runTrajectory started from a subfolder finds the config above it and writes the file ' +
    'next to the config', async () => {
    const dir = project(`, redactions: [{ pattern: /shipped/, placeholder: '[STATUS]' }]`, 'built');
    const sub = join(dir, 'scripts/nested');
    mkdirSync(sub, { recursive: true });
    // A user's script, importing legate as installed (the built package) and playing a scripted model.
    writeFileSync(
      join(sub, 'record.mjs'),
      `import { runTrajectory, ScriptedTransport, reply } from '${root}/dist/src/index.js';\n` +
        `import { createOrderDesk } from '${root}/dist/examples/orders/agent.js';\n` +
        `const model = () => new ScriptedTransport([\n` +
        `  reply.toolUse('lookup_order', { orderId: 'A-1001' }),\n` +
        `  reply.text('Your order A-1001 has shipped.'),\n` +
        `]);\n` +
        `const run = await runTrajectory({ file: 'trajectories/found.yaml', agent: createOrderDesk, ` +
        `input: 'Where is my order A-1001?', mode: 'record', transport: model, report: false });\n` +
        `console.log(run.file);\n`,
    );
    const run = await runBuilt(['record.mjs'], sub);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(join(dir, 'trajectories/found.yaml'));
    expect(readFileSync(join(dir, 'trajectories/found.yaml'), 'utf8')).toContain('[STATUS]');
    // The command a user runs next, as a shell runs it: the config found from the subfolder, the file replayed.
    const replay = await runLegate(['replay', 'found.yaml'], join(dir, 'trajectories'));
    expect(replay.stdout).toContain('✓ found.yaml');
    expect(replay.stderr).toBe('');
    expect(replay.status).toBe(0);
  }, 120_000);

  it("from a subfolder, finds the config above and replays the config's trajectory folder", async () => {
    const dir = project(`, trajectories: 'recorded'`);
    cpSync('trajectories/tool-loop.yaml', join(dir, 'recorded/tool-loop.yaml'));
    const sub = join(dir, 'src/deeper');
    mkdirSync(sub, { recursive: true });
    const replay = await replayInProcess([], sub);
    expect(replay.stdout).toContain('✓ ../../recorded/tool-loop.yaml');
    expect(replay.stdout).toContain('1 replayed: 1 passed, 0 failed');
    expect(replay.status).toBe(0);
    const io = captureIo(sub);
    expect(await main(['validate'], io)).toBe(0);
    expect(io.stdout).toContain('✓ ../../recorded/tool-loop.yaml');
  }, 60_000);
});

describe('the re-record command legate prints', () => {
  it('is the legate replay command that works, from where the user is', async () => {
    const dir = project();
    promptChanged(dir);
    const sub = join(dir, 'src');
    mkdirSync(sub);
    const run = await replayInProcess(['../trajectories/tool-loop.yaml'], sub);
    const command = 'LEGATE_MODE=record npx legate replay ../trajectories/tool-loop.yaml';
    expect(run.stdout).toContain(`If the change is intended, re-record the trajectory: ${command}`);
    expect(run.status).toBe(1);
  }, 60_000);

  it('names the config when it is not the one legate finds by itself', async () => {
    const dir = project();
    promptChanged(dir);
    const elsewhere = join(dir, 'config');
    mkdirSync(elsewhere);
    cpSync(join(dir, 'legate.config.ts'), join(elsewhere, 'custom.config.ts'));
    const run = await replayInProcess(['trajectories/tool-loop.yaml', '--config', 'config/custom.config.ts'], dir);
    const command = 'LEGATE_MODE=record npx legate replay trajectories/tool-loop.yaml --config config/custom.config.ts';
    expect(run.stdout).toContain(`re-record the trajectory: ${command}`);
  }, 60_000);
});
