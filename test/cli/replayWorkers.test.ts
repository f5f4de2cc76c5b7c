import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { runLegate } from '../support/builtPackage.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 20: `legate replay --workers N` and `--shard i/n` (merged with --merge-reports) give the verdict lines, their
// order, the summary, the reports and the exit code of one in-process run. Runs on one thread and shards run here,
// through the command's main(); runs on worker threads (threads of the command's process, which it starts, loses and
// stops) run the built command as a shell does, its workers from dist/ as users' are (from source each worker would
// load legate through tsx: seconds of CPU per thread). One run from source checks that path too.

const root = resolve('.');
const tempDir = useTempDir();

/** Files of the shipped corpus the project replays, and one that diverges from today's code, in the middle. */
const CORPUS = [
  'approval-denied.yaml',
  'email-limit.yaml',
  'max-tokens.yaml',
  'refusal.yaml',
  'tool-loop.yaml',
  'zero-trust.yaml',
];

/** The shipped agents the corpus needs, from the built package (dist/). */
const BUILT_AGENTS =
  `import { defineConfig } from '${root}/dist/src/index.js';\n` +
  `import { createCalculator } from '${root}/dist/examples/calculator/agent.js';\n` +
  `import { createOrderDesk } from '${root}/dist/examples/orders/agent.js';\n` +
  `import { createAssistant } from '${root}/dist/examples/payments/agent.js';\n` +
  `import { createSupportDesk } from '${root}/dist/examples/support/agent.js';\n` +
  `import { createTreasurer } from '${root}/dist/examples/treasury/agent.js';\n` +
  'const base = { agents: { calculator: createCalculator, order_desk: createOrderDesk, assistant: createAssistant, ' +
  'support_desk: createSupportDesk, treasurer: createTreasurer } };\n';

/**
 * The project's config: for main() here, a TypeScript config importing this repository's source; for the built
 * command, a JavaScript one importing dist/ (each thread of the command would otherwise start tsx for it: most of a
 * second of CPU), or a TypeScript one where reading TypeScript in the workers is part of what is checked.
 */
const CONFIGS = {
  source: {
    file: 'legate.config.ts',
    imports: `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n`,
  },
  built: { file: 'legate.config.mjs', imports: BUILT_AGENTS },
  'built, TypeScript': { file: 'legate.config.ts', imports: BUILT_AGENTS },
};

/** A project: a config (see CONFIGS) exporting the shipped agents (and `extra`), the corpus in t/, t/diverges.yaml. */
function makeProject(dir: string, extra = '', config: keyof typeof CONFIGS = 'source'): string {
  mkdirSync(join(dir, 't'), { recursive: true });
  for (const file of CORPUS) copyFileSync(join(root, 'trajectories', file), join(dir, 't', file));
  // The recorded answer no longer matches what the scripted model says today: a divergence.
  const recorded = readFileSync(join(root, 'trajectories/tool-failure.yaml'), 'utf8');
  const diverging = recorded.replace("content: Tool 'square_root' failed with RangeError.", 'content: other words');
  expect(diverging).not.toBe(recorded);
  writeFileSync(join(dir, 't', 'diverges.yaml'), diverging);
  writeFileSync(
    join(dir, CONFIGS[config].file),
    `${CONFIGS[config].imports}${extra}\n` +
      `export default defineConfig({ agents: { ...base.agents, ...extraAgents }, trajectories: 't' });\n`,
  );
  return dir;
}

const NO_EXTRA = 'const extraAgents = {};';

async function legate(dir: string, ...argv: string[]) {
  const io = captureIo(dir);
  const code = await main(['replay', ...argv], io);
  return { code, stdout: io.stdout.join('\n'), stderr: io.stderr.join('\n') };
}

/** `legate replay` as a shell runs the built command, in the shape `legate` gives (one line break per line). */
async function built(dir: string, argv: string[], env: Record<string, string | undefined> = {}, node: string[] = []) {
  const run = await runLegate(['replay', ...argv], dir, env, node);
  return { code: run.status, stdout: run.stdout.replace(/\n$/, ''), stderr: run.stderr.replace(/\n$/, '') };
}

/** A JUnit report with its timings taken out. */
function untimed(xml: string): string {
  return xml.replace(/ time="[^"]*"/g, '').replace(/ timestamp="[^"]*"/g, '');
}

describe('replay across workers and shards', () => {
  let dir: string;
  /** The same project, its config importing the built package, for the built command. */
  let builtDir: string;
  let one: Awaited<ReturnType<typeof legate>>;
  beforeAll(async () => {
    dir = makeProject(mkdtempSync(join(tmpdir(), 'legate-workers-')), NO_EXTRA);
    builtDir = makeProject(mkdtempSync(join(tmpdir(), 'legate-workers-built-')), NO_EXTRA, 'built');
    one = await legate(dir, '--workers', '1', '--reporter', 'junit', '--output', 'one.xml');
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(builtDir, { recursive: true, force: true });
  });

  it('one worker: the baseline has the divergence, a line per file and exit 1', () => {
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/^✗ t\/diverges\.yaml$/m);
    expect(one.stdout).toMatch(/7 replayed: 6 passed, 1 failed$/);
  });

  it('2 and 4 workers: the same lines, order, summary, exit code, JUnit (timings aside) and HTML', async () => {
    const html = await legate(dir, '--workers', '1', '--reporter', 'html', '--output', 'one.html');
    expect(html.code).toBe(1);
    const read = (folder: string, file: string) => untimed(readFileSync(join(folder, file), 'utf8'));
    const two = await built(builtDir, ['--workers', '2', '--reporter', 'junit', '--output', 'two.xml']);
    expect(two).toEqual(one);
    expect(read(builtDir, 'two.xml')).toEqual(read(dir, 'one.xml'));
    const four = await built(builtDir, ['--workers', '4', '--reporter', 'html', '--output', 'four.html']);
    expect(four).toEqual(html);
    expect(read(builtDir, 'four.html')).toEqual(read(dir, 'one.html'));
  }, 120_000);

  it('from source (as `tsx cli/legate.ts` runs), the workers read it through tsx: the same as one thread', async () => {
    expect(await legate(dir, '--workers', '2')).toEqual(await legate(dir, '--workers', '1'));
  }, 120_000);

  it('3 shards merged: the same lines, summary, exit code and JUnit (timings aside) as one run', async () => {
    const shardFiles = new Set<string>();
    for (const index of [1, 2, 3]) {
      const shard = await legate(
        dir,
        '--workers',
        '1',
        '--shard',
        `${index}/3`,
        '--reporter',
        'blob',
        '--output',
        `shard-${index}.json`,
      );
      for (const line of shard.stdout.split('\n').filter((l) => /^[✓✗] /.test(l))) {
        const file = line.slice(2).split('  ')[0]!;
        expect(shardFiles.has(file), `${file} is in two shards`).toBe(false);
        shardFiles.add(file);
      }
    }
    expect(shardFiles.size).toBe(CORPUS.length + 1); // every file, once
    const merged = await legate(dir, '--merge-reports', 'shard-1.json', 'shard-2.json', 'shard-3.json');
    expect(merged).toEqual({ ...one, stderr: '' });
    mkdirSync(join(dir, 'blobs'));
    for (const index of [3, 1, 2]) copyFileSync(join(dir, `shard-${index}.json`), join(dir, 'blobs', `${index}.json`));
    const junit = await legate(dir, '--merge-reports', 'blobs', '--reporter', 'junit', '--output', 'merged.xml');
    expect(junit.code).toBe(1);
    const read = (file: string) => untimed(readFileSync(join(dir, file), 'utf8'));
    expect(read('merged.xml')).toEqual(read('one.xml'));
    await legate(dir, '--workers', '1', '--reporter', 'html', '--output', 'one.html');
    await legate(dir, '--merge-reports', 'blobs', '--reporter', 'html', '--output', 'merged.html');
    expect(read('merged.html')).toEqual(read('one.html'));
    expect(read('merged.html')).toContain('data-verdict="diverged"');
  }, 120_000);

  it('--bail: files after the first failure in file order are not run, with workers and merged shards', async () => {
    const bailed = await legate(dir, '--workers', '1', '--bail');
    expect(bailed.stdout).toMatch(/2 replayed: 1 passed, 1 failed, 5 not run \(--bail\)$/);
    expect(bailed.code).toBe(1);
    expect(await built(builtDir, ['--workers', '2', '--bail'])).toEqual(bailed);
    for (const index of [1, 2, 3]) {
      await legate(
        dir,
        '--workers',
        '1',
        '--bail',
        '--shard',
        `${index}/3`,
        '--reporter',
        'blob',
        '--output',
        `bail-${index}.json`,
      );
    }
    const merged = await legate(dir, '--merge-reports', 'bail-1.json', 'bail-2.json', 'bail-3.json');
    expect(merged).toEqual(bailed);
  }, 120_000);

  it('refuses blobs that are not every shard of one run once, in one line, exit 2', async () => {
    const refused = async (args: string[], says: RegExp) => {
      const run = await legate(dir, '--merge-reports', ...args);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(says);
      expect(run.stderr.split('\n')).toHaveLength(1);
      expect(run.code).toBe(2);
    };
    for (const index of [1, 2, 3]) {
      await legate(dir, '--workers', '1', '--shard', `${index}/3`, '--reporter', 'blob', '--output', `s-${index}.json`);
    }
    await refused(['s-1.json', 's-3.json'], /shard 2\/3 is missing \(2 of 3 given\); merge every shard's blob/);
    await refused(['s-1.json', 's-1.json', 's-3.json'], /s-1\.json and s-1\.json are both shard 1\/3; give each shard/);
    await legate(dir, '--workers', '1', '--shard', '2/3', '--bail', '--reporter', 'blob', '--output', 'bail-2.json');
    await refused(['s-1.json', 'bail-2.json', 's-3.json'], /were replayed with different options/);
    await legate(dir, 't/refusal.yaml', '--workers', '1', '--reporter', 'blob', '--output', 'other.json');
    await refused(['s-1.json', 'other.json'], /s-1\.json and other\.json replayed different corpora/);
    writeFileSync(join(dir, 'junk.json'), '{"hello": 1}');
    await refused(['junk.json'], /junk\.json is not a legate replay blob/);
    const blob = JSON.parse(readFileSync(join(dir, 's-1.json'), 'utf8'));
    // Edited after they were written: every verdict made a pass (the diverging file's too), then one record dropped.
    type Record = { verdict?: { ok: boolean } };
    const shards = [1, 2, 3].map((index) => JSON.parse(readFileSync(join(dir, `s-${index}.json`), 'utf8')));
    const pass = shards.flatMap((shard) => shard.records as Record[]).find((record) => record.verdict?.ok)?.verdict;
    expect(shards.some((shard) => (shard.records as Record[]).some((record) => record.verdict?.ok === false))).toBe(
      true,
    );
    shards.forEach((shard, i) => {
      const records = (shard.records as Record[]).map((record) => ({ ...record, verdict: pass }));
      writeFileSync(join(dir, `edited-${i + 1}.json`), JSON.stringify({ ...shard, records }));
    });
    await refused(
      ['edited-1.json', 'edited-2.json', 'edited-3.json'],
      /edited-\d\.json was changed after legate wrote/,
    );
    writeFileSync(join(dir, 'short.json'), JSON.stringify({ ...blob, records: blob.records.slice(1) }));
    await refused(['short.json', 's-2.json', 's-3.json'], /short\.json was changed after legate wrote it/);
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ ...blob, legate: '0.0.1' }));
    await refused(['old.json'], /old\.json was written by legate 0\.0\.1 .*replay every shard with the legate/);
    await refused(['nothere'], /nothere does not exist/);
    await refused(['s-1.json', '--bail'], /--merge-reports merges the shards' blobs and replays nothing.*--bail/);
  }, 120_000);

  it('a shard with no files says so in one line and exits 0', async () => {
    const run = await legate(dir, 't/refusal.yaml', '--shard', '1/2');
    expect(run).toEqual({
      code: 0,
      stdout: '',
      stderr: 'legate replay: shard 1/2 has no files (the corpus has 1); nothing to replay.',
    });
  });
});

describe('a worker that stops', () => {
  /**
   * The command's own thread takes the first file (t/0-waits.yaml) at once, before any worker is ready; its agent
   * waits there until a worker has died on t/a-crashes.yaml (the next file: the first a worker takes), so the crash
   * is a worker's, whatever the machine's speed. The worker writes the marker and exits.
   */
  const CRASHES_IN_A_WORKER =
    `import { existsSync, writeFileSync } from 'node:fs';\n` +
    `import { setTimeout } from 'node:timers/promises';\n` +
    `const marker = new URL('./crashed', import.meta.url);\n` +
    `const waits = (transport) => {\n` +
    `  const agent = base.agents.calculator(transport);\n` +
    `  const run = agent.run.bind(agent);\n` +
    `  agent.run = async (...args) => { while (!existsSync(marker)) await setTimeout(10); return run(...args); };\n` +
    `  return agent;\n` +
    `};\n` +
    `const extraAgents = { waiter: waits, crasher: () => { writeFileSync(marker, ''); process.exit(7); } };`;

  it('exits on a file: that file gets an error line, the files after it their verdicts', async () => {
    const dir = makeProject(tempDir(), CRASHES_IN_A_WORKER, 'built');
    const refusal = readFileSync(join(root, 'trajectories/refusal.yaml'), 'utf8');
    expect(refusal).toMatch(/^agent: calculator$/m);
    writeFileSync(join(dir, 't', '0-waits.yaml'), refusal.replace(/^agent: .*$/m, 'agent: waiter'));
    writeFileSync(join(dir, 't', 'a-crashes.yaml'), refusal.replace(/^agent: .*$/m, 'agent: crasher'));
    const run = await built(dir, ['--workers', '2']);
    const stopped = 't/a-crashes.yaml: the replay worker stopped before giving a verdict: it exited with code 7';
    expect(run.stdout).toContain(`✓ t/0-waits.yaml  1 turn, refusal\n✗ t/a-crashes.yaml\n    ${stopped}\n`);
    // The next file, which the crashed worker would have taken, was replayed by another thread.
    expect(run.stdout).toContain('\n✓ t/approval-denied.yaml  2 turns');
    expect(run.stdout).toMatch(/9 replayed: 7 passed, 2 failed$/);
    expect(run.code).toBe(1);
  }, 120_000);

  /**
   * The command's own thread takes the first file (t/0-blocks.yaml); its agent blocks that thread (Atomics.wait:
   * no return to its event loop, as a replay served from a file never returns to it) until a worker has replayed
   * t/a-marks.yaml, the next file. It hangs unless a worker takes files without this thread's help.
   */
  const BLOCKS_UNTIL_A_WORKER_REPLAYS =
    `import { existsSync, writeFileSync } from 'node:fs';\n` +
    `const marker = new URL('./marked', import.meta.url);\n` +
    `const pause = new Int32Array(new SharedArrayBuffer(4));\n` +
    `const blocks = (transport) => {\n` +
    `  const agent = base.agents.calculator(transport);\n` +
    `  const run = agent.run.bind(agent);\n` +
    `  agent.run = (...args) => { while (!existsSync(marker)) Atomics.wait(pause, 0, 0, 5); return run(...args); };\n` +
    `  return agent;\n` +
    `};\n` +
    `const marks = (transport) => { writeFileSync(marker, ''); return base.agents.calculator(transport); };\n` +
    `const extraAgents = { blocker: blocks, marker: marks };`;

  it("takes files while the command's own thread is busy and never returns to its event loop", async () => {
    const dir = makeProject(tempDir(), BLOCKS_UNTIL_A_WORKER_REPLAYS, 'built');
    const refusal = readFileSync(join(root, 'trajectories/refusal.yaml'), 'utf8');
    writeFileSync(join(dir, 't', '0-blocks.yaml'), refusal.replace(/^agent: .*$/m, 'agent: blocker'));
    writeFileSync(join(dir, 't', 'a-marks.yaml'), refusal.replace(/^agent: .*$/m, 'agent: marker'));
    const run = await built(dir, ['--workers', '2']);
    expect(run.stdout).toContain('✓ t/0-blocks.yaml  1 turn, refusal\n✓ t/a-marks.yaml  1 turn, refusal\n');
    expect(run.stdout).toMatch(/9 replayed: 8 passed, 1 failed$/);
    expect(run.code).toBe(1);
  }, 120_000);

  const THROWS_IN_WORKERS =
    `import { isMainThread } from 'node:worker_threads';\n` +
    `if (!isMainThread) throw new Error('no workers here');\nconst extraAgents = {};`;

  it("whose config throws at import: no file is lost, the command's own thread replays them all", async () => {
    const run = await built(makeProject(tempDir(), THROWS_IN_WORKERS, 'built'), ['--workers', '2']);
    expect(run.stdout).not.toMatch(/replay worker stopped/);
    expect(run.stdout.match(/^[✓✗] t\//gm)).toHaveLength(7);
    expect(run.stdout).toMatch(/7 replayed: 6 passed, 1 failed$/);
    expect(run.code).toBe(1);
  }, 120_000);

  it("by default, a corpus too small to repay a thread replays in the command's own thread", async () => {
    const run = await legate(makeProject(tempDir(), THROWS_IN_WORKERS));
    expect(run.stdout).toMatch(/7 replayed: 6 passed, 1 failed$/);
    expect(run.stdout).not.toMatch(/replay worker stopped/);
  }, 60_000);

  it('runs under node options a worker may not be given itself (a V8 flag): the workers inherit them', async () => {
    // A TypeScript config: each worker registers tsx for it itself, under the options it inherited.
    const dir = makeProject(tempDir(), NO_EXTRA, 'built, TypeScript');
    const args = ['t/refusal.yaml', 't/max-tokens.yaml', '--workers', '2'];
    const run = await built(dir, args, {}, ['--max-semi-space-size=32']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/2 replayed: 2 passed, 0 failed$/);
    expect(run.code).toBe(0);
  }, 120_000);

  it('a setting error met in a worker (recording without an API key) stops the command: one line, exit 2', async () => {
    const dir = makeProject(tempDir(), NO_EXTRA, 'built');
    const env = { LEGATE_MODE: 'record', ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined };
    const run = await built(dir, ['--workers', '2'], env);
    expect(run.stderr).toMatch(/^legate replay: ANTHROPIC_API_KEY is not set: .*export ANTHROPIC_API_KEY=/);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.code).toBe(2);
  }, 120_000);
});
