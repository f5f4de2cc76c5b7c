import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runTrajectory } from 'legate';
import { yamlLoad } from './parseOnly.js';
import { agent } from '../replayCorpus.js';

/** What one process measures: the corpus replayed, or the same files read and loaded by js-yaml alone. */
type ReplaySide = 'replay' | 'parse';

/** A sample's least CPU time, in microseconds: an in-process round's length (bench/replay.bench.ts, `roundMs`). */
const ROUND_CPU = 1e6;

/** What the parent writes to a side's process for each sample, and what the process prints once it is warm. */
const SAMPLE = 'sample';
const READY = 'ready';

/**
 * One side of the replay line in a process of its own, so that only its own garbage is collected there: the corpus
 * in `dir` untimed for at least 2 s of CPU (the JIT settles), then one timed sample each time the parent asks. A
 * sample is as many whole passes over the corpus as make at least ROUND_CPU of CPU, as long as one of the in-process
 * rounds: a sample shorter than the collector's cycle would hold a full collection or not by chance (one pass over the
 * replay corpus took 0.38 to 0.80 ms a file for that alone), and the median of such samples says which came more
 * often. A sample's figure is this process's CPU time (user + system, all its threads) over it, per file. No
 * collection is forced: in a process that does only this work, the collections it pays for are its own.
 */
async function serveSide(side: ReplaySide, dir: string): Promise<void> {
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
  console.log(READY);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== SAMPLE) throw new Error(`expected '${SAMPLE}' on stdin, got ${JSON.stringify(line)}`);
    const start = process.cpuUsage();
    let replayed = 0;
    let spent = 0;
    do {
      await pass();
      replayed += files.length;
      const { user, system } = process.cpuUsage(start);
      spent = user + system;
    } while (spent < ROUND_CPU);
    console.log(String(spent / replayed));
  }
}

/** A side's process, warm and waiting: each `sample()` times one sample there. */
interface SideProcess {
  /** One sample's CPU microseconds per file. */
  sample(): Promise<number>;
  close(): void;
}

/**
 * Starts a `node` process (tsx loads this file; `legate` resolves to the built dist/) that serves one side over the
 * corpus in `dir`, and resolves once it is warm. Loading and warming are not counted: the child times its samples.
 */
async function startSide(side: ReplaySide, dir: string): Promise<SideProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), side, dir], {
    cwd: resolve('.'),
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  // A process that died takes no more requests (EPIPE): what it printed says why, through `next` below.
  child.stdin.on('error', () => {});
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (expected: string): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the ${side} process ended before it printed ${expected}: ${stderr}`);
    return value;
  };
  const ready = await next(READY);
  if (ready !== READY) throw new Error(`the ${side} process printed ${JSON.stringify(ready)}, not '${READY}'`);
  return {
    async sample() {
      child.stdin.write(`${SAMPLE}\n`);
      const line = await next('a sample');
      const perFile = Number(line);
      if (!(perFile > 0)) throw new Error(`the ${side} process printed ${JSON.stringify(line)}, not a sample`);
      return perFile;
    },
    close() {
      child.stdin.end();
    },
  };
}

/**
 * The two sides of the replay line, each in a process of its own, sampled in turn: replay, parse, parse, replay and so
 * on (each pair in the other order than the last), so that the machine's load drifting between samples falls on both
 * sides alike instead of on whichever was measured later, after one round untimed. Returns each side's CPU
 * microseconds per file, one figure per sample.
 */
export async function measureSidesInProcesses(dir: string, samples: number): Promise<Record<ReplaySide, number[]>> {
  const sides: Partial<Record<ReplaySide, SideProcess>> = {};
  const measured: Record<ReplaySide, number[]> = { replay: [], parse: [] };
  try {
    sides.replay = await startSide('replay', dir);
    sides.parse = await startSide('parse', dir);
    // One round untimed: the replay process's first sample, after seconds idle while the parse process warmed up,
    // cost 1.5-2x its next ones (874-1,062 us a file in three runs on an idle machine, then 487-760).
    for (const side of ['replay', 'parse'] as const) await sides[side]!.sample();
    for (let i = 0; i < samples; i++) {
      const order: ReplaySide[] = i % 2 === 0 ? ['replay', 'parse'] : ['parse', 'replay'];
      for (const side of order) measured[side].push(await sides[side]!.sample());
    }
  } finally {
    sides.replay?.close();
    sides.parse?.close();
  }
  return measured;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [side, dir] = process.argv.slice(2);
  if ((side !== 'replay' && side !== 'parse') || dir === undefined) {
    throw new Error(`expected: replayProcess.ts replay|parse <corpus dir>, got ${process.argv.slice(2)}`);
  }
  await serveSide(side, dir);
}
