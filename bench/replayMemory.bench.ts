import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { report, summarise } from './harness.js';
import { corpusProject } from './replay/corpusProject.js';

const SIZES = [1_000, 10_000] as const;
const ROUNDS = 3;
const count = (n: number) => n.toLocaleString('en-US');

/** `legate replay` (the built command) in `dir`: its peak resident memory in KB, all its threads together. */
function peakMemory(dir: string, workers: number): number {
  const args = ['--import', resolve('bench/replay/reportPeakMemory.mjs'), resolve('dist/cli/legate.js')];
  const run = spawnSync(process.execPath, [...args, 'replay', '--workers', String(workers)], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '', LEGATE_MODE: '', CI: '', VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0 || !/ replayed: \d+ passed, 0 failed\n$/.test(run.stdout))
    throw new Error(`legate replay --workers ${workers} exited ${run.status} in ${dir}: ${run.stderr}`);
  return Number(String(run.output[3]).trim());
}

/**
 * `legate replay`'s peak memory at 1,000 and at 10,000 files of the replay corpus, with one thread and with two:
 * the goal is memory independent of the corpus's size (it keeps nothing of a file replayed, when no report asks for
 * it). Peak resident memory of the whole process (process.resourceUsage().maxRSS at its exit), median (min-max) of
 * three runs each; the ratio is the larger corpus's over the smaller's. test/cli/replayMemory.test.ts holds the
 * same bound without a clock: a corpus larger than the heap it is given.
 */
export async function benchReplayMemory(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'legate-bench-memory-'));
  try {
    mkdirSync(join(root, 'recorded'));
    const projects: string[] = [];
    for (const files of SIZES)
      projects.push(await corpusProject(join(root, String(files)), files, join(root, 'recorded')));
    console.log(
      `legate replay's peak memory (the built command, resident, all threads) at ${SIZES.join(' and ')} files of the ` +
        `replay corpus, median (min-max) of ${ROUNDS} runs`,
    );
    const megabytes = { unit: 'MB', divide: 1024, digits: 0 };
    for (const workers of [1, 2]) {
      const peaks = projects.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++)
        for (const [i, dir] of projects.entries()) peaks[i]!.push(peakMemory(dir, workers));
      report({
        section: 'memory',
        line: `--workers ${workers}: ${count(SIZES[1])} files beside ${count(SIZES[0])}`,
        ours: summarise(`${count(SIZES[1])} files`, peaks[1]!),
        anchor: summarise(`${count(SIZES[0])} files`, peaks[0]!),
        scale: megabytes,
        goal: { most: 1.1, label: 'goal <= 1.1x: memory independent of the corpus' },
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
