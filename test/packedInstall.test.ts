import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workFolder } from './support/packedProject.js';
import { packedInstallOutput, packedProjectCopy } from './support/packedProjectCache.js';

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

/** Runs an ES module in the project, as a user's code would (with node's `flags`); returns what it printed as JSON. */
function runInProject(code: string, flags: string[] = []): unknown {
  const args = [...flags, '--input-type=module', '-e', code];
  const run = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

/** Runs the installed `legate` command in a folder of the project, as npx does: the link npm made in .bin. */
function legate(folder: string, ...args: string[]) {
  const cwd = join(project, folder);
  const env = { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '' };
  return spawnSync(join(project, 'node_modules/.bin/legate'), args, { cwd, encoding: 'utf8', env });
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

  it('has no install-time script, and npm warns of none installing it', () => {
    type Manifest = { scripts?: Record<string, string>; bin: Record<string, string> };
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/legate/package.json'), 'utf8')) as Manifest;
    const installTime = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => manifest.scripts?.[name]);
    expect(installTime).toEqual([]);
    const output = packedInstallOutput(work);
    expect(output).toMatch(/\badded \d+ packages\b/); // npm's own report of the install: the output is there to read
    expect(output.split('\n').filter((line) => line.includes('install-scripts'))).toEqual([]);
  });

  it('links the legate command to an executable file in the package, which runs', () => {
    const { bin } = JSON.parse(readFileSync(join(project, 'node_modules/legate/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    const file = join(project, 'node_modules/legate', bin.legate!);
    expect(statSync(file).mode & 0o111).toBe(0o111);
    expect(realpathSync(join(project, 'node_modules/.bin/legate'))).toBe(realpathSync(file));
    const run = legate('.', '--version');
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
    expect(run.status).toBe(0);
  });

  it('imports legate', () => {
    const loaded = runInProject(`
      const core = await import('legate');
      const loaded = { Agent: core.Agent, FileStateStore: core.FileStateStore };
      const types = Object.entries(loaded).map(([name, value]) => [name, typeof value]);
      console.log(JSON.stringify(Object.fromEntries(types)));`);
    expect(loaded).toEqual({ Agent: 'function', FileStateStore: 'function' });
  });

  it("carries its own zod, bundled: none of its files imports the installed one's", () => {
    const dist = join(project, 'node_modules/legate/dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    const imported = files.map((file) => ({
      file,
      packages: [
        ...readFileSync(join(dist, file), 'utf8').matchAll(/(?:\bfrom|\bimport\(?)\s*["']([^"'./][^"']*)["']/g),
      ].map(([, name]) => name!),
    }));
    expect(imported.filter(({ packages }) => packages.some((name) => /^zod(\/|$)/.test(name)))).toEqual([]);
    // The pattern finds the packages the build leaves as installed (the check above could fail).
    expect(imported.flatMap(({ packages }) => packages)).toContain('@anthropic-ai/sdk');
    // The application's own zod, the one its tools' schemas come from, is installed beside it.
    expect(resolvable('zod')).toBe(true);
  });

  it("declares a tool from the application's zod schema, a copy of zod beside legate's own", () => {
    // Descriptions (zod's registry), bounds and defaults in the JSON Schema the model is shown; the bounds and the
    // refinement (zod's own step) in the binder's refusals.
    const declared = runInProject(`
      const z = await import('zod');
      const { defineTool } = await import('legate');
      const input = z
        .object({ city: z.string().min(2).describe('The city to look up.'), days: z.number().int().max(14).default(3) })
        .refine((value) => value.city !== 'Atlantis', { message: 'Atlantis has no forecast.' });
      const tool = defineTool({ name: 'forecast', description: 'Forecasts.', input, run: () => 'sunny' });
      const bound = [{ city: 'Oslo' }, { city: 'O' }, { city: 'Oslo', days: 15 }, { city: 'Atlantis' }].map((value) => {
        const result = tool.bind(value);
        return result.ok ? result.args : { code: result.invalid.code, message: result.invalid.message };
      });
      console.log(JSON.stringify({ schema: tool.definition().input_schema, bound }));`) as {
      schema: unknown;
      bound: unknown[];
    };
    expect(declared.schema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, description: 'The city to look up.' },
        days: { type: 'integer', maximum: 14, default: 3, minimum: Number.MIN_SAFE_INTEGER },
      },
      required: ['city'],
      additionalProperties: false,
    });
    expect(declared.bound).toEqual([
      { city: 'Oslo', days: 3 },
      { code: 'too_short', message: expect.any(String) },
      { code: 'out_of_range', message: expect.any(String) },
      { code: 'failed_rule', message: expect.stringContaining('Atlantis has no forecast.') },
    ]);
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

  it('ships source maps that carry their sources: every .map names sources whose text is in it or shipped', () => {
    const installed = join(project, 'node_modules/legate');
    const maps = readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(100);
    type SourceMapFile = { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
    const unresolved = maps.flatMap((file) => {
      const map = JSON.parse(readFileSync(join(installed, file), 'utf8')) as SourceMapFile;
      return map.sources
        .filter((source, i) => {
          if (typeof map.sourcesContent?.[i] === 'string') return false;
          return !existsSync(resolve(installed, dirname(file), map.sourceRoot ?? '', source));
        })
        .map((source) => `${file}: ${source}`);
    });
    expect({ unresolved: unresolved.length, first: unresolved.slice(0, 3) }).toEqual({ unresolved: 0, first: [] });
  });

  it("maps a LegateError's stack frame inside legate to its TypeScript source line, under --enable-source-maps", () => {
    const frame = runInProject(
      `
      import { existsSync, readFileSync } from 'node:fs';
      import { findSourceMap } from 'node:module';
      import { fileURLToPath } from 'node:url';
      const { loadTrajectory } = await import('legate');
      Error.prepareStackTrace = (_error, sites) => sites; // the frames as they are: positions in the built JavaScript
      let sites = [];
      try {
        loadTrajectory('absent.yaml');
      } catch (error) {
        sites = error.stack;
      }
      Error.prepareStackTrace = undefined;
      const site = sites.find((s) => s.getFunctionName() === 'loadTrajectory');
      const built = site.getFileName();
      const map = findSourceMap(built);
      const entry = map.findEntry(site.getLineNumber() - 1, site.getColumnNumber() - 1);
      const { sources, sourceRoot = '', sourcesContent = [] } = map.payload;
      const index = sources.findIndex((s) => new URL(sourceRoot + s, built).href === entry.originalSource);
      const path = fileURLToPath(entry.originalSource);
      const text = sourcesContent[index] ?? (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
      const source = path.slice(path.indexOf('/node_modules/legate/') + '/node_modules/legate/'.length);
      const line = text?.split('\\n')[entry.originalLine];
      console.log(JSON.stringify({ built: built.endsWith('.js'), source, line }));`,
      ['--enable-source-maps'],
    );
    expect(frame).toEqual({
      built: true,
      source: 'src/trajectory/trajectoryFile.ts',
      line: expect.stringContaining('throw new TrajectoryNotFoundError('),
    });
  });

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
