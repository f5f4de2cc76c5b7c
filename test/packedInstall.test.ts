import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workFolder } from './support/packedProject.js';
import { packedProjectCopy } from './support/packedProjectCache.js';

// legate as npm publishes it, installed into a new project that has none of its optional peers
// (better-sqlite3, fast-check, tsx, vitest): offline, from the npm cache `npm ci` filled.
const root = resolve('.');
let work: string;
let project: string;

beforeAll(async () => {
  work = workFolder();
  project = await packedProjectCopy(root, work);
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

/** Runs an ES module in the project, as a user's code would; returns what it printed as JSON. */
function runInProject(code: string): unknown {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: project, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

/** Whether the project's code would find the package (an exports map refusing `require` still counts). */
function resolvable(name: string): boolean {
  try {
    createRequire(join(project, 'package.json')).resolve(name);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== 'MODULE_NOT_FOUND';
  }
}

describe('legate installed from its tarball, without optional peers', () => {
  it('is installed without better-sqlite3, fast-check, tsx or vitest, and nothing it installs has a build step', () => {
    expect(existsSync(join(project, 'node_modules/legate/package.json'))).toBe(true);
    expect(['better-sqlite3', 'fast-check', 'tsx', 'vitest'].filter(resolvable)).toEqual([]);
    type Lock = { packages: Record<string, { hasInstallScript?: boolean }> };
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as Lock;
    const building = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript === true);
    expect(building.map(([path]) => path)).toEqual([]);
  });

  it('imports legate', () => {
    const loaded = runInProject(`
      const core = await import('legate');
      const loaded = { Agent: core.Agent, FileStateStore: core.FileStateStore };
      const types = Object.entries(loaded).map(([name, value]) => [name, typeof value]);
      console.log(JSON.stringify(Object.fromEntries(types)));`);
    expect(loaded).toEqual({ Agent: 'function', FileStateStore: 'function' });
  });

  it.each([
    ['legate/sqlite', 'better-sqlite3', 'npm install better-sqlite3'],
    ['legate/postgres', 'pg', 'npm install pg'],
    ['legate/fuzz', 'fast-check', 'npm install --save-dev fast-check'],
  ])('refuses %s with a LegateError that names the install command', (entry, peer, install) => {
    expect(resolvable(peer)).toBe(false);
    const refusal = runInProject(`
      const { MissingPeerDependencyError } = await import('legate');
      try {
        await import('${entry}');
        console.log(JSON.stringify({ imported: true }));
      } catch (error) {
        const bases = [];
        for (let c = Object.getPrototypeOf(error.constructor); c && c !== Error; c = Object.getPrototypeOf(c)) {
          bases.push(c.name);
        }
        const { code, peer, installCommand, message } = error;
        const ours = error instanceof MissingPeerDependencyError;
        console.log(JSON.stringify({ ours, bases, code, peer, installCommand, message }));
      }`);
    expect(refusal).toMatchObject({
      ours: true,
      bases: ['LegateError'],
      code: 'missing_peer_dependency',
      peer,
      installCommand: install,
      message: expect.stringContaining(`Install it in your project: ${install}`),
    });
  });

  /** Each entry point behind an optional peer: a first call that needs the peer, and the install it names. */
  const OPTIONAL_PEERS = [
    {
      entry: 'legate/intercept',
      call:
        `(await import('legate/intercept'))` +
        `.interceptAnthropic({ file: 'never.yaml', mode: 'replay', config: false })`,
      peer: 'msw',
      install: 'npm install --save-dev msw@^2.15.0',
    },
    {
      entry: 'legate/mcp',
      call: `(await import('legate/mcp')).mcpTools({ command: 'never-started' })`,
      peer: '@modelcontextprotocol/sdk',
      install: 'npm install @modelcontextprotocol/sdk@^1.32.0',
    },
    {
      entry: 'legate/mcp (serving)',
      call:
        `(await import('legate/mcp')).serveMcp({ tools: [(await import('legate'))` +
        `.defineTool({ name: 'noop', input: { type: 'object' }, run: () => 'done' })] })`,
      peer: '@modelcontextprotocol/sdk',
      install: 'npm install @modelcontextprotocol/sdk@^1.32.0',
    },
    {
      entry: 'legate/openapi',
      call:
        `(await import('legate/openapi'))` +
        `.openApiTools({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} })`,
      peer: '@readme/openapi-parser',
      install: 'npm install @readme/openapi-parser@^9.0.0',
    },
  ];

  it.each(OPTIONAL_PEERS)(
    'imports $entry without $peer, and refuses its first call with a LegateError naming the install',
    ({ call, peer, install }) => {
      expect(resolvable(peer)).toBe(false);
      const refusal = runInProject(`
        try {
          await ${call};
          console.log(JSON.stringify({ ran: true }));
        } catch (error) {
          const { code, peer, installCommand } = error;
          console.log(JSON.stringify({ code, peer, installCommand }));
        }`);
      expect(refusal).toEqual({ code: 'missing_peer_dependency', peer, installCommand: install });
    },
  );

  /** Runs the installed `legate` command in a folder of the project. */
  function legate(folder: string, ...args: string[]) {
    const cwd = join(project, folder);
    const bin = join(project, 'node_modules/legate/dist/cli/legate.js');
    const env = { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '' };
    return spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env });
  }

  it('replays with a config written as JavaScript, without tsx', () => {
    const folder = join(project, 'js-config');
    mkdirSync(join(folder, 'trajectories'), { recursive: true });
    const trajectory = 'trajectories/invalid-argument-corrected.yaml';
    cpSync(join(root, trajectory), join(folder, trajectory));
    writeFileSync(
      join(folder, 'legate.config.mjs'),
      "import { defineConfig } from 'legate';\n" +
        "import { createCalculator } from '../node_modules/legate/dist/examples/calculator/agent.js';\n" +
        "export default defineConfig({ agents: { calculator: createCalculator }, trajectories: 'trajectories' });\n",
    );
    const run = legate('js-config', 'replay');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('1 replayed: 1 passed, 0 failed');
    expect(run.status).toBe(0);
  });

  it('asks for tsx, naming the install command, to load a TypeScript config', () => {
    mkdirSync(join(project, 'ts-config'));
    writeFileSync(join(project, 'ts-config/legate.config.ts'), 'export default { agents: {} };\n');
    const run = legate('ts-config', 'replay');
    // One line: legate's own refusal says what to do; no class name, no stack, no LEGATE_DEBUG hint.
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^legate replay: Loading .*legate\.config\.ts/),
    ]);
    expect(run.stderr).toContain('needs the package tsx, which is not installed');
    expect(run.stderr).toContain('npm install --save-dev tsx');
    expect(run.stderr).not.toContain('LEGATE_DEBUG');
    expect(run.status).toBe(2); // the config cannot be loaded as things are: bad input, as docs/cli.md says
  });

  it('asks for fast-check, naming the install command, to fuzz', () => {
    mkdirSync(join(project, 'fuzz'));
    writeFileSync(join(project, 'fuzz/tools.mjs'), 'export const tools = [];\n');
    const run = legate('fuzz', 'fuzz', 'tools.mjs');
    expect(run.stderr.trim().split('\n')).toEqual([
      'legate fuzz: legate/fuzz needs the package fast-check, which is not installed. legate declares it as an ' +
        'optional peer dependency, installed only by those who use it. Install it in your project: ' +
        'npm install --save-dev fast-check.',
    ]);
    expect(run.status).toBe(2);
  });

  it('imports legate/fuzz once fast-check is installed', () => {
    symlinkSync(realpathSync(join(root, 'node_modules/fast-check')), join(project, 'node_modules/fast-check'), 'dir');
    const loaded = runInProject(`
      const { fuzzTool, validInput } = await import('legate/fuzz');
      console.log(JSON.stringify({ fuzzTool: typeof fuzzTool, validInput: typeof validInput }));`);
    expect(loaded).toEqual({ fuzzTool: 'function', validInput: 'function' });
  });

  it('imports legate/vitest once vitest is installed, and adds the matchers to expect', () => {
    symlinkSync(realpathSync(join(root, 'node_modules/vitest')), join(project, 'node_modules/vitest'), 'dir');
    const loaded = runInProject(`
      await import('legate/vitest');
      const { expect } = await import('vitest');
      console.log(JSON.stringify({ toHaveBlocked: typeof expect({}).toHaveBlocked }));`);
    expect(loaded).toEqual({ toHaveBlocked: 'function' });
  });
});
