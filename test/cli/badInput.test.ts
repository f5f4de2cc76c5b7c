import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { findFuzzTargets } from '../../src/fuzz/index.js';
import { loadProject, ModuleImportError } from '../../src/index.js';
import { captureIo } from '../support/captureIo.js';
import { runLegate } from '../support/builtPackage.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 12: every verb, given input it cannot use, says so in one line on stderr naming the path
// (or option) and what to do, exits 2, and never shows a stack trace unless LEGATE_DEBUG=1.

const tempDir = useTempDir();
const root = resolve('.');

/**
 * A project folder: a config that exports the shipped agents, one good trajectory, and modules
 * that cannot be imported (one throws, one is not JavaScript, one imports a package that is not installed).
 */
function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'));
  copyFileSync('trajectories/refusal.yaml', join(dir, 't', 'good.yaml'));
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n` +
      `export default defineConfig({ agents: base.agents });\n`,
  );
  writeFileSync(join(dir, 'throws.mjs'), `throw new Error('the module is broken');\n`);
  writeFileSync(join(dir, 'syntax.mjs'), `export const x = ;\n`);
  writeFileSync(join(dir, 'needs-package.mjs'), `import 'legate-no-such-package';\nexport const x = 1;\n`);
  writeFileSync(join(dir, 'needs-agent.mjs'), `import './agents/gone.mjs';\nexport default { agents: {} };\n`);
  return dir;
}

type Case = 'unknown flag' | 'missing file' | 'bad number' | 'missing module' | 'module fails to import';

/** A cell: the arguments, and what the one line must say besides naming `names`. */
interface Cell {
  argv: string[];
  names: string;
  says: RegExp;
  /** Prepares the project folder before the command runs. */
  setup?: (dir: string) => void;
}

/** Why a case does not apply to a verb: the verb takes no such input. */
type NotApplicable = { notApplicable: string };

const HELP = (verb: string) => new RegExp(`Run 'legate ${verb} --help' for its options\\.$`);
const MISSING = /does not exist.*check the path/;
// In-process, vitest's loader reports the syntax error in its own words; the real process's SyntaxError is checked
// with a spawn below.
const NOT_JAVASCRIPT = /syntax\.mjs(:\d+:\d+)?: cannot be imported: .*[Pp]arse.*\. Fix the module/;
const NO_MODULES = { notApplicable: 'it imports no module (it reads trajectory files only)' };

const TABLE: Record<string, Record<Case, Cell | Cell[] | NotApplicable>> = {
  replay: {
    'unknown flag': { argv: ['replay', '--bogus'], names: "'--bogus'", says: HELP('replay') },
    'missing file': { argv: ['replay', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': { notApplicable: 'it takes no number (--match takes a level: see its row below)' },
    'missing module': { argv: ['replay', '--config', 'nothere.ts'], names: 'nothere.ts', says: MISSING },
    'module fails to import': [
      { argv: ['replay', '--config', 'throws.mjs'], names: 'throws.mjs', says: /the module is broken.*Fix/ },
      { argv: ['replay', '--config', 'syntax.mjs'], names: 'syntax.mjs', says: NOT_JAVASCRIPT },
      {
        argv: ['replay', '--config', 'needs-package.mjs'],
        names: 'needs-package.mjs',
        says: /imports 'legate-no-such-package', which is not installed.*npm install legate-no-such-package/,
      },
      {
        argv: ['replay', '--config', 'needs-agent.mjs'],
        names: 'needs-agent.mjs',
        says: /imports '.*agents\/gone\.mjs', which does not exist\. Fix the import's path\./,
      },
    ],
  },
  validate: {
    'unknown flag': { argv: ['validate', '--bogus'], names: "'--bogus'", says: HELP('validate') },
    'missing file': { argv: ['validate', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': { notApplicable: 'it names no module: the config is found, not given (next row)' },
    'module fails to import': {
      argv: ['validate'],
      names: 'legate.config.ts',
      says: /the config is broken.*Fix/,
      setup: (dir) => writeFileSync(join(dir, 'legate.config.ts'), `throw new Error('the config is broken');\n`),
    },
  },
  fork: {
    'unknown flag': { argv: ['fork', 't/good.yaml', '--bogus'], names: "'--bogus'", says: HELP('fork') },
    'missing file': {
      argv: ['fork', 't/missing.yaml', '--at', '1', '--out', 't/fork.yaml'],
      names: 't/missing.yaml',
      says: MISSING,
    },
    'bad number': ['0', '-1', '1.5', 'x', ''].map((at) => ({
      argv: ['fork', 't/good.yaml', '--at', at, '--out', 't/fork.yaml'],
      names: '--at',
      says: new RegExp(`--at must be a whole number of at least 1, but it was "${at}"`),
    })),
    'missing module': {
      argv: ['fork', 't/good.yaml', '--at', '1', '--out', 't/fork.yaml', '--config', 'nothere.ts'],
      names: 'nothere.ts',
      says: MISSING,
    },
    'module fails to import': {
      argv: ['fork', 't/good.yaml', '--at', '1', '--out', 't/fork.yaml', '--config', 'throws.mjs'],
      names: 'throws.mjs',
      says: /the module is broken.*Fix/,
    },
  },
  show: {
    'unknown flag': { argv: ['show', '--bogus'], names: "'--bogus'", says: HELP('show') },
    'missing file': { argv: ['show', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': NO_MODULES,
    'module fails to import': NO_MODULES,
  },
  diff: {
    'unknown flag': { argv: ['diff', '--bogus'], names: "'--bogus'", says: HELP('diff') },
    'missing file': { argv: ['diff', 't/good.yaml', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': NO_MODULES,
    'module fails to import': NO_MODULES,
  },
  rerecord: {
    'unknown flag': { argv: ['rerecord', 't', '--out', 'new', '--bogus'], names: "'--bogus'", says: HELP('rerecord') },
    'missing file': { argv: ['rerecord', 't/missing.yaml', '--out', 'new'], names: 't/missing.yaml', says: MISSING },
    'bad number': ['0', '1.5', 'x'].map((samples) => ({
      argv: ['rerecord', 't', '--out', 'new', '--samples', samples],
      names: '--samples',
      says: new RegExp(
        `--samples must be a whole number from 1 to 100 .*, but it was '${samples.replace('.', '\\.')}'`,
      ),
    })),
    'missing module': {
      argv: ['rerecord', 't', '--out', 'new', '--config', 'nothere.ts'],
      names: 'nothere.ts',
      says: MISSING,
    },
    'module fails to import': {
      argv: ['rerecord', 't', '--out', 'new', '--config', 'throws.mjs'],
      names: 'throws.mjs',
      says: /the module is broken.*Fix/,
    },
  },
  compare: {
    'unknown flag': { argv: ['compare', 't', 't', '--bogus'], names: "'--bogus'", says: HELP('compare') },
    'missing file': { argv: ['compare', 't/good.yaml', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': NO_MODULES,
    'module fails to import': NO_MODULES,
  },
  view: {
    'unknown flag': { argv: ['view', 't', '--bogus'], names: "'--bogus'", says: HELP('view') },
    'missing file': { argv: ['view', 't/missing.yaml', '--out', '-'], names: 't/missing.yaml', says: MISSING },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': NO_MODULES,
    'module fails to import': NO_MODULES,
  },
  fuzz: {
    'unknown flag': { argv: ['fuzz', '--bogus'], names: "'--bogus'", says: HELP('fuzz') },
    'missing file': { argv: ['fuzz', 'nothere.ts'], names: 'nothere.ts', says: MISSING },
    'bad number': [
      ...['-5', '0', '1.5', 'abc', '', '1e3', '0x10'].map((runs) => ({
        argv: ['fuzz', 'legate.config.ts', '--runs', runs],
        names: '--runs',
        says: new RegExp(`--runs must be a whole number of at least 1, but it was "${runs}"`),
      })),
      ...['x', '1.5', '-'].map((seed) => ({
        argv: ['fuzz', 'legate.config.ts', '--seed', seed],
        names: '--seed',
        says: new RegExp(`--seed must be a whole number, but it was "${seed}"`),
      })),
    ],
    'missing module': {
      argv: ['fuzz', 'legate.config.ts', '--config', 'nothere.ts'],
      names: 'nothere.ts',
      says: MISSING,
    },
    'module fails to import': [
      { argv: ['fuzz', 'throws.mjs'], names: 'throws.mjs', says: /the module is broken.*Fix/ },
      { argv: ['fuzz', 'syntax.mjs'], names: 'syntax.mjs', says: NOT_JAVASCRIPT },
      {
        argv: ['fuzz', 'needs-package.mjs'],
        names: 'needs-package.mjs',
        says: /imports 'legate-no-such-package', which is not installed.*npm install legate-no-such-package/,
      },
    ],
  },
  attack: {
    'unknown flag': { argv: ['attack', '--bogus'], names: "'--bogus'", says: HELP('attack') },
    'missing file': { notApplicable: 'the one file it reads is the module it runs (missing module)' },
    'bad number': { notApplicable: 'it takes no number (--modes takes a list of modes: see its row below)' },
    'missing module': { argv: ['attack', 'nothere.ts'], names: 'nothere.ts', says: MISSING },
    'module fails to import': [
      { argv: ['attack', 'throws.mjs'], names: 'throws.mjs', says: /the module is broken.*Fix/ },
      { argv: ['attack', 'syntax.mjs'], names: 'syntax.mjs', says: NOT_JAVASCRIPT },
      {
        argv: ['attack', 'needs-package.mjs'],
        names: 'needs-package.mjs',
        says: /imports 'legate-no-such-package', which is not installed.*npm install legate-no-such-package/,
      },
    ],
  },
  audit: {
    'unknown flag': { argv: ['audit', 't/good.yaml', '--bogus'], names: "'--bogus'", says: HELP('audit') },
    'missing file': {
      argv: ['audit', 't/missing.yaml', '--untrusted', 'fetch_page'],
      names: 't/missing.yaml',
      says: MISSING,
    },
    'bad number': [
      ...['send_email', 'send_email=', 'send_email=1.5', 'send_email=x'].map((limit) => ({
        argv: ['audit', 't/good.yaml', '--limit', limit],
        names: '--limit',
        says: /--limit takes tool=N \(N a whole number\), not '.*'\. Run 'legate audit --help'/,
      })),
      ...['0', '-2'].map((max) => ({
        argv: ['audit', 't/good.yaml', '--limit', `send_email=${max}`],
        names: "'send_email'",
        says: new RegExp(
          `the limit on 'send_email'\\) must be a whole number of calls of at least 1, but it was the number ${max}`,
        ),
      })),
    ],
    'missing module': {
      argv: ['audit', 't/good.yaml', '--untrusted', 'fetch_page', '--config', 'nothere.ts'],
      names: 'nothere.ts',
      says: MISSING,
    },
    'module fails to import': {
      argv: ['audit', 't/good.yaml', '--untrusted', 'fetch_page', '--config', 'throws.mjs'],
      names: 'throws.mjs',
      says: /the module is broken.*Fix/,
    },
  },
  mcp: {
    'unknown flag': { argv: ['mcp', 'serve', '--bogus'], names: "'--bogus'", says: HELP('mcp') },
    'missing file': { notApplicable: 'the one file it reads is the module it serves (missing module)' },
    'bad number': {
      argv: ['mcp', 'serve', 'throws.mjs', '--http', 'abc'],
      names: '--http',
      says: /--http must be a port, a whole number from 0 to 65535 .* but it was "abc"/,
    },
    'missing module': { argv: ['mcp', 'serve', 'nothere.ts'], names: 'nothere.ts', says: MISSING },
    'module fails to import': [
      { argv: ['mcp', 'serve', 'throws.mjs'], names: 'throws.mjs', says: /the module is broken.*Fix/ },
      { argv: ['mcp', 'serve', 'syntax.mjs'], names: 'syntax.mjs', says: NOT_JAVASCRIPT },
      {
        argv: ['mcp', 'serve', 'needs-package.mjs'],
        names: 'needs-package.mjs',
        says: /imports 'legate-no-such-package', which is not installed.*npm install legate-no-such-package/,
      },
    ],
  },
  mcpList: {
    'unknown flag': { argv: ['mcp', 'list', '--bogus', 'node', 'server.mjs'], names: "'--bogus'", says: HELP('mcp') },
    'missing file': {
      argv: ['mcp', 'list', './no-such-server'],
      names: './no-such-server',
      says: /Could not connect to the MCP server '\.\/no-such-server': spawn \.\/no-such-server ENOENT$/,
    },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': { notApplicable: 'it imports no module: the server is a command it starts (missing file)' },
    'module fails to import': { notApplicable: 'it imports no module: the server is a command it starts' },
  },
  openapi: {
    'unknown flag': { argv: ['openapi', 't/good.yaml', '--bogus'], names: "'--bogus'", says: HELP('openapi') },
    'missing file': { argv: ['openapi', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': {
      argv: ['openapi', 't/good.yaml', '--max-tools', '0'],
      names: '--max-tools',
      says: /--max-tools must be a whole number of at least 1, but it was "0"/,
    },
    'missing module': { notApplicable: 'it imports no module (it reads an OpenAPI document)' },
    'module fails to import': { notApplicable: 'it imports no module (it reads an OpenAPI document)' },
  },
  proxy: {
    'unknown flag': {
      argv: ['proxy', '--bogus', 't/good.yaml', '--', 'true'],
      names: "'--bogus'",
      says: HELP('proxy'),
    },
    'missing file': {
      argv: ['proxy', '--replay', 't/missing.yaml', '--', 'true'],
      names: 't/missing.yaml',
      says: new RegExp(
        't/missing\\.yaml does not exist\\. There is no recording to replay\\..*' +
          'npx legate proxy --record t/missing\\.yaml -- true$',
      ),
    },
    'bad number': {
      argv: ['proxy', '--port', '70000', 't/good.yaml', '--', 'true'],
      names: '--port',
      says: /--port must be a whole number from 0 to 65535, but it was "70000"/,
    },
    'missing module': {
      argv: ['proxy', '--config', 'nothere.ts', 't/good.yaml', '--', 'true'],
      names: 'nothere.ts',
      says: MISSING,
    },
    'module fails to import': {
      argv: ['proxy', '--config', 'throws.mjs', 't/good.yaml', '--', 'true'],
      names: 'throws.mjs',
      says: /the module is broken.*Fix/,
    },
  },
  standIn: {
    'unknown flag': { argv: ['stand-in', 't/good.yaml', '--bogus'], names: "'--bogus'", says: HELP('stand-in') },
    'missing file': { argv: ['stand-in', 't/missing.yaml'], names: 't/missing.yaml', says: MISSING },
    'bad number': {
      argv: ['stand-in', 't/good.yaml', '--port', '80000'],
      names: '--port',
      says: /--port must be a whole number from 0 to 65535 \(0: any free port\), but it was "80000"\.$/,
    },
    'missing module': { argv: ['stand-in', 'nothere.mjs'], names: 'nothere.mjs', says: MISSING },
    'module fails to import': [
      { argv: ['stand-in', 'throws.mjs'], names: 'throws.mjs', says: /the module is broken.*Fix/ },
      { argv: ['stand-in', 'syntax.mjs'], names: 'syntax.mjs', says: NOT_JAVASCRIPT },
      {
        argv: ['stand-in', 'needs-package.mjs'],
        names: 'needs-package.mjs',
        says: /imports 'legate-no-such-package', which is not installed.*npm install legate-no-such-package/,
      },
    ],
  },
  demo: {
    'unknown flag': { argv: ['demo', '--bogus'], names: "'--bogus'", says: HELP('demo') },
    'missing file': { notApplicable: 'it reads no file' },
    'bad number': { notApplicable: 'it takes no number' },
    'missing module': { notApplicable: 'it imports only the shipped example' },
    'module fails to import': { notApplicable: 'it imports only the shipped example' },
  },
};

/** Runs one command in `dir` (a fresh project) and holds it to the rule: one line on stderr, exit 2, no stack. */
async function expectOneLine(cell: Cell, dir = project()): Promise<string> {
  cell.setup?.(dir);
  const io = captureIo(dir);
  const code = await main(cell.argv, io);
  expect(io.stderr, io.text()).toHaveLength(1);
  const line = io.stderr[0]!;
  expect(line).not.toMatch(/\n|^\s+at /m);
  expect(line).toContain(cell.names);
  expect(line).toMatch(cell.says);
  expect(line).not.toContain(dir); // paths are shown as given, relative to the working folder
  expect(code, line).toBe(2);
  return line;
}

describe('every legate verb, given input it cannot use', () => {
  it('has a row for every verb in cli/commands, and every case in every row', () => {
    const verbs = readdirSync('cli/commands').map((file) => file.replace(/\.ts$/, ''));
    expect(Object.keys(TABLE).sort()).toEqual(verbs.sort());
    for (const row of Object.values(TABLE)) expect(Object.keys(row)).toHaveLength(5);
  });

  // A case that does not apply to a verb is stated in the table with the reason, and has no test.
  const cells = Object.entries(TABLE).flatMap(([verb, row]) =>
    Object.entries(row).flatMap(([kind, cell]): { title: string; cell: Cell }[] =>
      'notApplicable' in cell
        ? []
        : [cell].flat().map((one) => ({ title: `${verb} × ${kind}: ${one.argv.join(' ')}`, cell: one })),
    ),
  );

  for (const { title, cell } of cells)
    it(`${title} → one line naming ${cell.names}, exit 2`, () => expectOneLine(cell));

  it('replay --match with a level it does not know: one line listing the levels, exit 2', () =>
    expectOneLine({ argv: ['replay', '--match', 'loose'], names: "'loose'", says: /exact, structure, shape/ }));

  const WORKERS = /--workers must be a whole number of worker threads, at least 1 \(e\.g\. --workers 4\)/;
  for (const value of ['0', 'x', '1.5'])
    it(`replay --workers ${value}: one line saying what --workers takes, exit 2`, () =>
      expectOneLine({ argv: ['replay', '--workers', value], names: `'${value}'`, says: WORKERS }));

  const SHARD = /--shard must be i\/n with whole numbers 1 ≤ i ≤ n \(e\.g\. --shard 1\/3\)/;
  for (const value of ['0/3', '4/3', 'x', '1/0'])
    it(`replay --shard ${value}: one line saying what --shard takes, exit 2`, () =>
      expectOneLine({ argv: ['replay', '--shard', value], names: `'${value}'`, says: SHARD }));

  it('attack --modes with a mode it does not know: one line listing the modes, exit 2', () =>
    expectOneLine({
      argv: ['attack', 'throws.mjs', '--modes', 'taint,strict'],
      names: '"strict"',
      says: /not a defence mode\. Give a comma-separated list of none, taint, approve, provenance, each once/,
    }));

  it('a number given with = works as given with a space, negative included', () =>
    expectOneLine({
      argv: ['fuzz', 'legate.config.ts', '--runs=-5'],
      names: '--runs',
      says: /--runs must be a whole number of at least 1, but it was "-5"/,
    }));

  it('any --runs that is not a whole number of at least 1, and any --seed that is not whole: one line, exit 2', () =>
    fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ option: fc.constant('--runs'), value: fc.string().filter((v) => !/^0*[1-9]\d*$/.test(v)) }),
          fc.record({ option: fc.constant('--seed'), value: fc.string().filter((v) => !/^-?\d+$/.test(v)) }),
        ),
        fc.boolean(),
        async ({ option, value }, joined) => {
          const io = captureIo(tempDir());
          const argv = ['fuzz', 'never-imported.ts', ...(joined ? [`${option}=${value}`] : [option, value])];
          expect(await main(argv, io)).toBe(2);
          expect(io.stdout).toEqual([]);
          expect(io.stderr).toHaveLength(1);
          expect(io.stderr[0]).not.toMatch(/[\n\r]/);
          expect(io.stderr[0]).toMatch(new RegExp(`^legate fuzz: .*${option}`));
        },
      ),
      { numRuns: 60 },
    ));
});

describe('paths that cannot be read', () => {
  /** A folder with one good file and the given bad one. */
  function folderWith(make: (path: string) => void, name = 'bad.yaml'): string {
    const dir = project();
    make(join(dir, 't', name));
    return dir;
  }

  const ROWS: [string, (path: string) => void, RegExp][] = [
    ['a trajectory with a YAML syntax error', (p) => writeFileSync(p, 'version: [1\n'), /^t\/bad\.yaml:2:1: /],
    ['a symlink loop', (p) => symlinkSync('bad.yaml', p), /^t\/bad\.yaml: .*symbolic links.*\(ELOOP\)/],
    ['a FIFO (never opened for reading: no hang)', (p) => execFileSync('mkfifo', [p]), /^t\/bad\.yaml: .*FIFO/],
    ['a dangling symlink', (p) => symlinkSync('nowhere.yaml', p), /^t\/bad\.yaml: does not exist/],
  ];

  for (const [what, make, says] of ROWS) {
    for (const verb of ['validate', 'show', 'replay']) {
      it(`${verb} on ${what}: one line naming the path, exit ${what.includes('syntax') ? 1 : 2}`, async () => {
        const io = captureIo(folderWith(make));
        const code = await main([verb, 't/bad.yaml'], io);
        // replay gives the file its verdict line (✗ file: problem) on stdout; the others, their line on stderr.
        const lines = [...io.stderr, ...io.stdout]
          .filter((line) => line.includes('t/bad.yaml'))
          .map((line) => line.replace(/^✗ /, ''));
        expect(lines, io.text()).toEqual([expect.stringMatching(says)]);
        expect(io.text()).not.toMatch(/^\s+at /m);
        // A file that was read and is wrong is a finding (1); one that could not be read is bad input (2).
        expect(code).toBe(what.includes('syntax') ? 1 : 2);
      });
    }
  }

  it('validate on a folder with a symlink loop in it: one line for it, the good file checked, exit 2', async () => {
    const dir = folderWith((p) => symlinkSync('loop.yaml', p), 'loop.yaml');
    symlinkSync('.', join(dir, 't', 'again'));
    const io = captureIo(dir);
    expect(await main(['validate', 't'], io)).toBe(2);
    expect(io.stderr).toEqual([expect.stringMatching(/^t\/loop\.yaml: .*\(ELOOP\)/)]);
    expect(io.stdout).toContain('✓ t/good.yaml');
  });

  const asRoot = process.getuid?.() === 0;
  const rootNote = asRoot ? ' (skipped: running as root, which reads any file)' : '';
  it.skipIf(asRoot)(`an unreadable file (chmod 000): one line naming it, exit 2${rootNote}`, async () => {
    const dir = project();
    chmodSync(join(dir, 't', 'good.yaml'), 0o000);
    for (const verb of ['validate', 'show']) {
      const io = captureIo(dir);
      expect(await main([verb, 't/good.yaml'], io)).toBe(2);
      expect(io.stderr).toEqual([expect.stringMatching(/^t\/good\.yaml: cannot be read: permission denied/)]);
    }
  });

  it('a config with a syntax error: one line naming the config, exit 2', async () => {
    const dir = project();
    writeFileSync(join(dir, 'legate.config.mjs'), `export default { agents: { ;\n`);
    const io = captureIo(dir);
    expect(await main(['replay', '--config', 'legate.config.mjs'], io)).toBe(2);
    expect(io.stderr).toEqual([
      expect.stringMatching(/^legate replay: legate\.config\.mjs(:\d+:\d+)?: cannot be imported: .*Fix the module/),
    ]);
  });
});

describe('a module that cannot be imported, for code that imports it through legate', () => {
  it("is a ModuleImportError with its code, its file and the module's own error as the cause", async () => {
    const dir = project();
    const caught = (modules: string[]) => findFuzzTargets(modules, { cwd: dir }).catch((error: unknown) => error);
    expect(await caught(['nothere.ts'])).toMatchObject({
      name: 'ModuleImportError',
      code: 'module_not_found',
      file: join(dir, 'nothere.ts'),
    });
    const thrown = await caught(['throws.mjs']);
    expect(thrown).toBeInstanceOf(ModuleImportError);
    expect(thrown).toMatchObject({ code: 'module_import_failed', file: join(dir, 'throws.mjs') });
    expect((thrown as ModuleImportError).cause).toMatchObject({ message: 'the module is broken' });
    const config = await loadProject({ cwd: dir, config: 'needs-package.mjs' }).catch((error: unknown) => error);
    expect(config).toMatchObject({
      code: 'module_import_failed',
      file: join(dir, 'needs-package.mjs'),
      missingImport: 'legate-no-such-package',
    });
  });
});

describe('recording against the live API with a setting wrong', () => {
  /** `legate replay t/good.yaml` with LEGATE_MODE=record (re-records it live), in the given environment. */
  async function record(env: Record<string, string | undefined>) {
    vi.stubEnv('LEGATE_MODE', 'record');
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      const io = captureIo(project());
      const code = await main(['replay', 't/good.yaml'], io);
      return { code, io };
    } finally {
      vi.unstubAllEnvs();
    }
  }

  it('without ANTHROPIC_API_KEY: one line naming the variable and how to set it, exit 2', async () => {
    const { code, io } = await record({ ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined });
    expect(io.stderr).toEqual([
      expect.stringMatching(/^legate replay: ANTHROPIC_API_KEY is not set: .*export ANTHROPIC_API_KEY=/),
    ]);
    expect(io.stdout).toEqual([]);
    expect(code).toBe(2);
  });

  it('with nothing at ANTHROPIC_BASE_URL: one line naming the URL and the variable, exit 2', async () => {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
    await new Promise<void>((done) => probe.close(() => done()));
    const { code, io } = await record({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url });
    expect(io.stderr).toEqual([
      expect.stringMatching(new RegExp(`^legate replay: could not connect to ${url} \\(ANTHROPIC_BASE_URL\\): `)),
    ]);
    expect(code).toBe(2);
  }, 60_000);
});

describe('LEGATE_DEBUG=1', () => {
  it('shows the stack for the same input: the cause of a module that cannot be imported', async () => {
    vi.stubEnv('LEGATE_DEBUG', '1');
    try {
      const dir = project();
      const io = captureIo(dir);
      expect(await main(['fuzz', 'throws.mjs'], io)).toBe(2);
      expect(io.stderr.join('\n')).toMatch(/the module is broken\n\s+at /);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

// The table runs in this process, through the command's own main(); these rows run the built command as a shell does:
// the real process prints the same one line on stderr, nothing on stdout, and exits 2. (Rows whose command does not
// read the project's config, which imports legate's source.)
describe('the legate process, for rows of the table', () => {
  const first = (cell: Cell | Cell[] | NotApplicable): Cell => [cell].flat()[0] as Cell;
  const rows = [
    first(TABLE.replay!['unknown flag']),
    first(TABLE.validate!['missing file']),
    first(TABLE.fuzz!['bad number']),
    first(TABLE.mcp!['module fails to import']),
  ];
  for (const cell of rows)
    it(`legate ${cell.argv.join(' ')}: the line main() prints, on stderr, and exit 2`, async () => {
      const dir = project();
      const line = await expectOneLine(cell, dir);
      const run = await runLegate(cell.argv, dir);
      expect({ stdout: run.stdout, stderr: run.stderr, status: run.status }).toEqual({
        stdout: '',
        stderr: `${line}\n`,
        status: 2,
      });
    }, 120_000);
});

describe('the legate process (last resort)', () => {
  it('a config with a syntax error, in a real process: one line with file:line:column, exit 2', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'legate.config.ts'), `export default { agents: { a: ; } };\n`);
    const run = await runLegate(['replay'], dir);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^legate replay: legate\.config\.ts:1:\d+: .*SyntaxError.*Fix/),
    ]);
    expect(run.status).toBe(2);
  }, 120_000);

  it('an error nobody awaited (a rejection at import): one line, no stack, exit 1; ' +
    'LEGATE_DEBUG=1 shows it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'stray.mjs'), `Promise.reject(new Error('nobody awaited this'));\nexport const x = 1;\n`);
    const plain = await runLegate(['fuzz', 'stray.mjs'], dir);
    expect(plain.stderr).not.toMatch(/^\s+at /m);
    expect(plain.stderr.trim().split('\n')).toContain(
      'legate: Error: nobody awaited this (set LEGATE_DEBUG=1 for the stack trace)',
    );
    expect(plain.status).toBe(1);
    const debug = await runLegate(['fuzz', 'stray.mjs'], dir, { LEGATE_DEBUG: '1' });
    expect(debug.stderr).toMatch(/nobody awaited this\n\s+at /);
  }, 120_000);
});
