import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { figure, report, summarise } from './harness.js';
import { corpusProject } from './replay/corpusProject.js';

const SIZES = [1_000, 10_000] as const;
const ROUNDS = 3;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * `legate replay` (the built command) in `dir`: the heap its thread still holds at its end, after a full collection
 * (what it kept of the files), and its peak resident memory, all its threads together; both in KB.
 */
function memoryOf(dir: string, workers: number): { kept: number; peak: number } {
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
  const [kept, peak] = String(run.output[3]).trim().split(' ').map(Number);
  return { kept: kept!, peak: peak! };
}

/**
 * `legate replay`'s memory at 1,000 and at 10,000 files of the replay corpus, with one thread and with two: the goal
 * is memory independent of the corpus's size (it keeps nothing of a file replayed, when no report asks for it). The
 * figure is what the command's thread still holds at its end after a full collection (a file kept would show there:
 * 17 KB a file once); beside it, the peak resident memory of the whole process, which V8's heap sizing also sets
 * (it lets the heap grow while garbage comes fast). Median (min-max) of three runs each; the ratio is the larger
 * corpus's over the smaller's. test/cli/replayMemory.test.ts holds the same bound without a clock: a corpus larger
 * than the heap it is given.
 */
export async function benchReplayMemory(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'legate-bench-memory-'));
  try {
    mkdirSync(join(root, 'recorded'));
    const projects: string[] = [];
    for (const files of SIZES)
      projects.push(await corpusProject(join(root, String(files)), files, join(root, 'recorded')));
    console.log(
      `legate replay's memory (the built command) at ${SIZES.join(' and ')} files of the replay corpus: the heap ` +
        `kept at its end, after a full collection; median (min-max) of ${ROUNDS} runs`,
    );
    const megabytes = { unit: 'MB', divide: 1024, digits: 1 };
    for (const workers of [1, 2]) {
      const runs = projects.map(() => [] as { kept: number; peak: number }[]);
      for (let round = 0; round < ROUNDS; round++)
        for (const [i, dir] of projects.entries()) runs[i]!.push(memoryOf(dir, workers));
      const peak = (i: number) =>
        figure(
          summarise(
            'peak',
            runs[i]!.map((r) => r.peak),
          ),
          megabytes,
        );
      report({
        section: 'memory',
        line: `--workers ${workers}: ${count(SIZES[1])} files beside ${count(SIZES[0])}, heap kept`,
        ours: summarise(
          `${count(SIZES[1])} files`,
          runs[1]!.map((r) => r.kept),
        ),
        anchor: summarise(
          `${count(SIZES[0])} files`,
          runs[0]!.map((r) => r.kept),
        ),
        scale: megabytes,
        goal: { most: 1.1, label: 'goal <= 1.1x: memory independent of the corpus' },
        note: `peak resident memory, all threads: ${peak(1)} at ${count(SIZES[1])} files, ${peak(0)} at the fewer`,
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
