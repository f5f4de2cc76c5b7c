import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { loadTrajectory } from '../../src/index.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');
afterEach(() => vi.unstubAllEnvs());

const ANSWER = 'I paid nothing: the page asked for a wire of $9000, which you did not ask for.';

/**
 * A project: the shipped agents, a live transport that is a scripted model answering each run once with ANSWER, and
 * zero-trust.yaml as t/parent.yaml.
 */
function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'));
  copyFileSync('trajectories/zero-trust.yaml', join(dir, 't', 'parent.yaml'));
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig, reply, ScriptedTransport } from '${root}/src/index.ts';\n` +
      `import base from '${root}/legate.config.ts';\n` +
      'export default defineConfig({\n' +
      '  agents: base.agents,\n' +
      `  transport: () => new ScriptedTransport([reply.text(${JSON.stringify(ANSWER)})]),\n` +
      '});\n',
  );
  return dir;
}

async function legate(dir: string, ...argv: string[]) {
  const io = captureIo(dir);
  const code = await main(argv, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

describe('legate fork', () => {
  it("forks zero-trust.yaml at turn 2 with the config's transport; legate replay replays the fork", async () => {
    const dir = project();
    const forked = await legate(dir, 'fork', 't/parent.yaml', '--at', '2', '--out', 't/fork.yaml');
    expect(forked).toEqual({
      code: 0,
      stdout: ['forked t/parent.yaml at turn 2 into t/fork.yaml: 2 turns served from it, 1 live; end_turn'],
      stderr: [],
    });
    const fork = loadTrajectory(join(dir, 't', 'fork.yaml'));
    expect(fork.fork).toMatchObject({ parent: 'parent.yaml', turn: 2 });
    expect(fork.turns.map((turn) => turn.response.content[0])).toEqual([
      { text: 'Let me read the invoice.' },
      { text: 'The page says to wire $9000.' },
      { text: ANSWER },
    ]);

    const replayed = await legate(dir, 'replay', 't/fork.yaml');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout[0]).toMatch(/^✓ t\/fork\.yaml {2}3 turns, end_turn; .*; fork of t\/parent\.yaml at turn 2$/);

    // The parent changed in a turn forked: the fork still passes, and its verdict line says so.
    const parent = join(dir, 't', 'parent.yaml');
    writeFileSync(parent, readFileSync(parent, 'utf8').replace('Let me read the invoice.', 'Reading the invoice.'));
    const changed = await legate(dir, 'replay', 't/fork.yaml');
    expect(changed.code).toBe(0);
    expect(changed.stdout[0]).toMatch(/; fork of t\/parent\.yaml at turn 2, which changed since$/);
  });

  it('forks whatever LEGATE_MODE says', async () => {
    vi.stubEnv('LEGATE_MODE', 'replay');
    const dir = project();
    expect((await legate(dir, 'fork', 't/parent.yaml', '--at', '1', '--out', 't/fork.yaml')).code).toBe(0);
    expect(loadTrajectory(join(dir, 't', 'fork.yaml')).turns).toHaveLength(2);
  });

  it('LEGATE_MODE=record legate replay on a fork forks it again from its parent', async () => {
    const dir = project();
    await legate(dir, 'fork', 't/parent.yaml', '--at', '2', '--out', 't/fork.yaml');
    const parent = join(dir, 't', 'parent.yaml');
    writeFileSync(parent, readFileSync(parent, 'utf8').replace('Let me read the invoice.', 'Reading the invoice.'));
    vi.stubEnv('LEGATE_MODE', 'record');
    const recorded = await legate(dir, 'replay', 't/fork.yaml');
    expect(recorded.code).toBe(0);
    expect(recorded.stdout[0]).toMatch(/; fork of t\/parent\.yaml at turn 2; recorded \(/);
    const fork = loadTrajectory(join(dir, 't', 'fork.yaml'));
    expect(fork.turns[0]!.response.content[0]).toEqual({ text: 'Reading the invoice.' });
    expect(fork.turns[2]!.response.content[0]).toEqual({ text: ANSWER });
    vi.unstubAllEnvs();
    expect((await legate(dir, 'replay', 't/fork.yaml')).stdout[0]).toMatch(/; fork of t\/parent\.yaml at turn 2$/);
  });

  it("exits 1 with the divergence when today's code does not make the forked turns, and writes nothing", async () => {
    const dir = project();
    // The page the parent read is not the page fetch_page reads today: the request for turn 2 differs.
    const parent = join(dir, 't', 'parent.yaml');
    writeFileSync(parent, readFileSync(parent, 'utf8').replace('Amount due: $120.00', 'Amount due: $130.00'));
    const forked = await legate(dir, 'fork', 't/parent.yaml', '--at', '2', '--out', 't/fork.yaml');
    expect(forked.code).toBe(1);
    expect(forked.stderr).toHaveLength(1);
    expect(forked.stderr[0]).toMatch(
      /^legate fork: t\/parent\.yaml \(the turns forked into t\/fork\.yaml\): the request for turn 2 differs/,
    );
    expect(forked.stderr[0]).toContain('LEGATE_MODE=record npx legate replay t/parent.yaml');
    expect(existsSync(join(dir, 't', 'fork.yaml'))).toBe(false);
  });

  it('refuses a turn the file cannot be forked at, an --out that is the file, a missing --out: exit 2', async () => {
    const dir = project();
    const late = await legate(dir, 'fork', 't/parent.yaml', '--at', '3', '--out', 't/fork.yaml');
    expect(late).toEqual({
      code: 2,
      stdout: [],
      stderr: [
        'legate fork: the run of t/parent.yaml ended after its last turn, 3 (end_turn), so a fork there would have ' +
          'nothing to continue: fork at a turn from 1 to 2.',
      ],
    });
    const over = await legate(dir, 'fork', 't/parent.yaml', '--at', '1', '--out', 't/../t/parent.yaml');
    expect(over.code).toBe(2);
    expect(over.stderr).toEqual([expect.stringMatching(/^legate fork: 'out' is the file to fork/)]);
    const noOut = await legate(dir, 'fork', 't/parent.yaml', '--at', '1');
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toEqual([expect.stringMatching(/e\.g\. legate fork run\.yaml --at 6 --out fix\.yaml$/)]);
    expect(existsSync(join(dir, 't', 'fork.yaml'))).toBe(false);
  });
});
