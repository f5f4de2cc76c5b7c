import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILES, generateCorpus } from './replayCorpus.js';

const ROUNDS = 3;

/**
 * `legate replay --workers 1` against `--workers N` (N the cores, at least 2) on the replay corpus, as users run it:
 * the built command (dist/cli/legate.js) in a process of its own, in a temporary project whose legate.config.ts
 * exports the corpus's agent. Each figure is the files over the whole command's wall time (its start, about a second,
 * included for both), the best of three rounds; the worker threads load the config themselves. Prints files per
 * second for each and the ratio (goal: at least 1.7x on 2 cores).
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
    const rate = (workers: number) => {
      let best = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const run = spawnSync(
          process.execPath,
          [resolve('dist/cli/legate.js'), 'replay', '--workers', String(workers)],
          {
            cwd: dir,
            encoding: 'utf8',
            env: { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' },
          },
        );
        const seconds = (performance.now() - started) / 1000;
        if (run.status !== 0) {
          throw new Error(`legate replay --workers ${workers} exited ${run.status} on the bench corpus: ${run.stderr}`);
        }
        best = Math.max(best, FILES / seconds);
      }
      return best;
    };
    const one = rate(1);
    const threads = rate(many);
    const format = (n: number) => `${n.toFixed(0).padStart(7)} files/s`;
    const coreCount = `${cores} core${cores === 1 ? '' : 's'}`;
    console.log(`legate replay --workers (the built command, whole runs), ${FILES} trajectories, ${coreCount}`);
    console.log(`  --workers 1  ${format(one)}`);
    console.log(`  --workers ${many}  ${format(threads)}`);
    const ratio = threads / one;
    console.log(`  ratio ${ratio.toFixed(2)}x  (goal ≥ 1.7x on 2 cores: ${ratio >= 1.7 ? 'met' : 'NOT met'})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchReplayWorkers();
