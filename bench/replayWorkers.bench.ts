import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { replay } from '../dist/cli/commands/replay.js';
import type { CliIo } from '../dist/cli/io.js';
import { FILES, generateCorpus } from './replayCorpus.js';

/**
 * `legate replay --workers 1` against `--workers N` (N the cores) on the replay corpus, through the command's own
 * code path: a temporary project whose legate.config.ts exports the corpus's agent, the replay command run in this
 * process (the workers load the config themselves, as they do under `npx legate replay`). Prints files per second
 * for each and the ratio (goal: at least 1.7x on 2 cores).
 */
export async function benchReplayWorkers(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-workers-'));
  try {
    mkdirSync(join(dir, 't'));
    await generateCorpus(join(dir, 't'));
    const url = (path: string) => pathToFileURL(resolve(path)).href;
    writeFileSync(
      join(dir, 'legate.config.ts'),
      `import { defineConfig } from '${url('dist/src/index.js')}';\n` +
        `import { agent } from '${url('bench/replayCorpus.ts')}';\n` +
        `export default defineConfig({ agents: { bench: agent }, trajectories: 't' });\n`,
    );
    const cores = availableParallelism();
    const rate = async (workers: number) => {
      const started = performance.now();
      const code = await replay(['--workers', String(workers)], silentIo(dir));
      if (code !== 0) throw new Error(`legate replay --workers ${workers} exited ${code} on the bench corpus`);
      return FILES / ((performance.now() - started) / 1000);
    };
    await rate(1); // warm-up: the first run imports the config and compiles it
    const one = await rate(1);
    const many = await rate(Math.max(cores, 2));
    const format = (n: number) => `${n.toFixed(0).padStart(7)} files/s`;
    console.log(`legate replay --workers, ${FILES} trajectories, ${cores} core${cores === 1 ? '' : 's'}`);
    console.log(`  --workers 1  ${format(one)}`);
    console.log(`  --workers ${Math.max(cores, 2)}  ${format(many)}`);
    const ratio = many / one;
    console.log(`  ratio ${ratio.toFixed(2)}x  (goal ≥ 1.7x on 2 cores: ${ratio >= 1.7 ? 'met' : 'NOT met'})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The command's io, printing nothing: the bench measures the replay, not the terminal. */
function silentIo(cwd: string): CliIo {
  const none = () => undefined;
  return { cwd, out: none, err: none, paint: (_style, text) => text, status: none };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchReplayWorkers();
