import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { figure, report, summarise } from './harness.js';
import { FILES, generateCorpus } from './replayCorpus.js';
import { runSubject, type StartupSubject } from './startup/startupScenario.js';

const ROUNDS = 3;

/**
 * `legate replay --workers 1` against `--workers N` (N the cores, at least 2) on the replay corpus, as users run it:
 * the built command (dist/cli/legate.js) in a process of its own, in a temporary project whose legate.config.ts
 * exports the corpus's agent. Each figure is the whole command's wall time (its start, about a second, included for
 * both): the point of threads is to finish sooner, and their CPU time adds up over the threads. The median (min-max)
 * of three alternating rounds, with the ratio (goal: at least 1.7x one worker's rate on 2 cores), and beside it the
 * command's CPU time over all its threads, what the threads cost.
 */
export async function benchReplayWorkers(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-workers-'));
  try {
    mkdirSync(join(dir, 't'));
    await generateCorpus(join(dir, 't'));
    const url = (path: string) => pathToFileURL(resolve(path)).href;
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'legate.config.ts'),
      `import { defineConfig } from '${url('dist/src/index.js')}';\n` +
        `import { agent } from '${url('bench/replayCorpus.ts')}';\n` +
        `export default defineConfig({ agents: { bench: agent }, trajectories: 't' });\n`,
    );
    const cores = availableParallelism();
    const many = Math.max(cores, 2);
    const subject = (workers: number): StartupSubject => ({
      name: `--workers ${workers}`,
      args: [resolve('dist/cli/legate.js'), 'replay', '--workers', String(workers)],
      cwd: dir,
      prints: new RegExp(`\\n${FILES} replayed: ${FILES} passed, 0 failed\\n$`),
    });
    const subjects = [subject(1), subject(many)];
    const wall = subjects.map(() => [] as number[]);
    const cpu = subjects.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, ran] of subjects.entries()) {
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
    const coreCount = `${cores} core${cores === 1 ? '' : 's'}`;
    console.log(
      `legate replay --workers (the built command, whole runs, start included), ${FILES} trajectories, ${coreCount}: ` +
        `wall time, median (min-max) of ${ROUNDS} alternating rounds`,
    );
    const seconds = { unit: 's', divide: 1e6, digits: 2 };
    const cpuOf = (i: number) => summarise(subjects[i]!.name, cpu[i]!);
    report({
      section: 'workers',
      line: `--workers ${many} beside --workers 1 (wall time: what threads are for)`,
      ours: summarise(`--workers ${many}`, wall[1]!),
      anchor: summarise('--workers 1', wall[0]!),
      scale: seconds,
      goal: { most: 1 / 1.7, label: 'goal <= 0.59x (>= 1.7x the rate) on 2 idle cores' },
      note:
        `CPU time of the whole command, all its threads: ${figure(cpuOf(1), seconds)} with ${many} workers, ` +
        `${figure(cpuOf(0), seconds)} with one. On a loaded machine the wall time counts others' work too.`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchReplayWorkers();
