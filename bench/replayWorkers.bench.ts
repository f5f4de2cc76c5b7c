import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { figure, report, summarise } from './harness.js';
import { corpusProject } from './replay/corpusProject.js';
import { runSubject, type StartupSubject } from './startup/startupScenario.js';

/**
 * Alternating rounds. The default runs the very code one of the others runs (one thread at 1,000 files, two at 8,000),
 * so what separates it from that one is the machine's noise, which five rounds' median holds down better than three's.
 */
const ROUNDS = 5;
const SIZES = [1_000, 8_000] as const;

/**
 * `legate replay --workers 1` against `--workers N` (N the cores, at least 2) and against the default, on 1,000 and
 * 8,000 files of the replay corpus, as users run it: the built command (dist/cli/legate.js) in a process of its own,
 * in a temporary project whose legate.config.ts exports the corpus's agent. Each figure is the whole command's wall
 * time (its start included for both): the point of threads is to finish sooner, and their CPU time adds up over the
 * threads. The median (min-max) of five alternating rounds, with the ratio (goal at 1,000 files: at least 1.5x one
 * thread's rate on 2 idle cores; the default never slower than one thread), and beside it the command's CPU time
 * over all its threads, what the threads cost.
 */
export async function benchReplayWorkers(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'legate-bench-workers-'));
  try {
    mkdirSync(join(root, 'recorded'));
    const cores = availableParallelism();
    const many = Math.max(cores, 2);
    const coreCount = `${cores} core${cores === 1 ? '' : 's'}`;
    const seconds = { unit: 's', divide: 1e6, digits: 2 };
    for (const files of SIZES) {
      const dir = await corpusProject(join(root, String(files)), files, join(root, 'recorded'));
      const subject = (workers: number | undefined): StartupSubject => ({
        name: workers === undefined ? 'the default' : `--workers ${workers}`,
        args: [
          resolve('dist/cli/legate.js'),
          'replay',
          ...(workers === undefined ? [] : ['--workers', String(workers)]),
        ],
        cwd: dir,
        prints: new RegExp(`\\n${files} replayed: ${files} passed, 0 failed\\n$`),
      });
      const subjects = [subject(1), subject(many), subject(undefined)];
      const wall = subjects.map(() => [] as number[]);
      const cpu = subjects.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++) {
        // Each round starts with another subject, so that a load that comes and goes in step with the rounds does not
        // fall on one subject alone: under one core busy 4 s in every 8, the default at 1,000 files (one thread, the
        // code `--workers 1` runs) read 1.22-1.25x `--workers 1` in two runs where it always came right after
        // `--workers 2`.
        for (let k = 0; k < subjects.length; k++) {
          const i = (round + k) % subjects.length;
          const ran = subjects[i]!;
          const started = performance.now();
          const run = runSubject(ran);
          const micros = (performance.now() - started) * 1000;
          if (run.status !== 0 || !ran.prints.test(run.stdout)) {
            throw new Error(`legate replay ${ran.name} exited ${run.status} on the bench corpus: ${run.stderr}`);
          }
          wall[i]!.push(micros);
          cpu[i]!.push(run.cpuMs * 1000);
        }
      }
      console.log(
        `legate replay --workers (the built command, whole runs, start included), ${files} trajectories, ` +
          `${coreCount}: wall time, median (min-max) of ${ROUNDS} alternating rounds`,
      );
      const cpuOf = (i: number) => figure(summarise(subjects[i]!.name, cpu[i]!), seconds);
      const one = summarise('--workers 1', wall[0]!);
      const note =
        `CPU time of the whole command, all its threads: ${cpuOf(1)} with ${many} threads, ${cpuOf(2)} by default, ` +
        `${cpuOf(0)} with one. On a loaded machine the wall time counts others' work too.`;
      report(
        {
          section: 'workers',
          line: `${files} files: --workers ${many} beside --workers 1 (wall time: what threads are for)`,
          ours: summarise(`--workers ${many}`, wall[1]!),
          anchor: one,
          scale: seconds,
          ...(files === SIZES[0]
            ? { goal: { most: 1 / 1.5, label: 'goal <= 0.67x (>= 1.5x the rate) on 2 idle cores' } }
            : {}),
          note,
        },
        {
          section: 'workers',
          line: `${files} files: the default beside --workers 1`,
          ours: summarise('the default', wall[2]!),
          anchor: one,
          scale: seconds,
          goal: { most: 1.05, label: "goal: never slower than one thread (<= 1.05x, the rounds' noise)" },
        },
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchReplayWorkers();
