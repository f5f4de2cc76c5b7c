import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runTrajectory } from 'legate';
import { yamlLoad } from './parseOnly.js';
import { agent } from '../replayCorpus.js';

/** What one process measures: the corpus replayed, or the same files read and loaded by js-yaml alone. */
type ReplaySide = 'replay' | 'parse';

/** A sample's least CPU time, in microseconds: an in-process round's length (bench/replay.bench.ts, `roundMs`). */
const ROUND_CPU = 1e6;

/**
 * One side of the replay line in a process of its own, so that only its own garbage is collected there: the corpus
 * in `dir` untimed for at least 2 s of CPU (the JIT settles), then `passes` timed samples. Each sample is as many
 * whole passes over the corpus as make at least ROUND_CPU of CPU, as long as one of the in-process rounds: a sample
 * shorter than the collector's cycle would hold a full collection or not by chance (one pass over the replay corpus
 * took 0.38 to 0.80 ms a file for that alone), and the median of such samples says which came more often. Each
 * sample's figure is this process's CPU time (user + system, all its threads) over it, per file. No collection is
 * forced: in a process that does only this work, the collections it pays for are its own. Prints the per-file
 * figures as JSON on its last line.
 */
async function measureSide(side: ReplaySide, dir: string, passes: number): Promise<number[]> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => join(dir, name));
  const pass = async () => {
    if (side === 'parse') for (const file of files) yamlLoad(readFileSync(file, 'utf8'));
    else for (const file of files) await runTrajectory({ file, agent, mode: 'replay' });
  };
  // Warm-up as long as the bench's in-process lines get (two 1-second rounds' worth), and at least one pass.
  const warm = process.cpuUsage();
  const warming = () => {
    const { user, system } = process.cpuUsage(warm);
    return user + system < 2e6;
  };
  do await pass();
  while (warming());
  const perFile: number[] = [];
  for (let i = 0; i < passes; i++) {
    const start = process.cpuUsage();
    let replayed = 0;
    let spent = 0;
    do {
      await pass();
      replayed += files.length;
      const { user, system } = process.cpuUsage(start);
      spent = user + system;
    } while (spent < ROUND_CPU);
    perFile.push(spent / replayed);
  }
  return perFile;
}

/**
 * Starts a `node` process (tsx loads this file; `legate` resolves to the built dist/) that measures one side over
 * the corpus in `dir`; returns its CPU microseconds per file, one figure per pass. Loading is not counted: the
 * child times its passes itself.
 */
export function measureSideInProcess(side: ReplaySide, dir: string, passes: number): number[] {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), side, dir, String(passes)],
    { cwd: resolve('.'), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' } },
  );
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !last.startsWith('[')) {
    throw new Error(`the ${side} process exited ${run.status}, printing ${JSON.stringify(last)}: ${run.stderr}`);
  }
  return JSON.parse(last) as number[];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [side, dir, passes] = process.argv.slice(2);
  if ((side !== 'replay' && side !== 'parse') || dir === undefined || !(Number(passes) > 0)) {
    throw new Error(`expected: replayProcess.ts replay|parse <corpus dir> <passes>, got ${process.argv.slice(2)}`);
  }
  console.log(JSON.stringify(await measureSide(side, dir, Number(passes))));
}
