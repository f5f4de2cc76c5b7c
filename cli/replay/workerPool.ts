import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot, runsFromSource } from '../../src/files/packageRoot.js';
import { oneLine } from '../describeError.js';
import type { Verdict } from './fileVerdict.js';
import type { FromWorker, WorkerSetup } from './workerProtocol.js';

/** A file's verdict and how long its replay took. */
export interface Replayed {
  file: string;
  verdict: Verdict;
  seconds: number;
}

/** A setting error a worker met (no API key, nothing at the URL): it stops the command, as in one process. */
export class WorkerSettingError extends Error {
  constructor(readonly line: string) {
    super(line);
  }
}

/** One worker thread and the file it holds (its index), if any. */
interface Slot {
  worker: Worker;
  ready: boolean;
  holding: number | undefined;
  /** Why it stopped, when it threw. */
  reason: string | undefined;
}

/**
 * Replays the files across `workers` worker threads and yields their verdicts in file order, each as soon as it
 * and every file before it are done. Each worker takes the next file when it finishes one. A worker that dies (its
 * config throws, it runs out of memory, it exits) gives the file it held an error verdict and is replaced; when
 * every worker died before taking a file, the files left get that error too: the pool never hangs. Stopping early
 * (the caller breaks, for --bail) terminates the workers.
 */
export async function* replayInWorkers(
  files: readonly string[],
  workers: number,
  setup: WorkerSetup,
): AsyncGenerator<Replayed> {
  const done = new Map<number, Replayed>();
  const slots = new Set<Slot>();
  let next = 0;
  let closing = false;
  let setting: string | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const crashed = (index: number, reason: string) => {
    const detail = `${files[index]}: the replay worker stopped before giving a verdict: ${reason}`;
    done.set(index, { file: files[index]!, verdict: { ok: false, detail, code: 'worker_crashed' }, seconds: 0 });
  };
  const assign = (slot: Slot) => {
    if (closing || next >= files.length) return;
    slot.holding = next++;
    slot.worker.postMessage({ index: slot.holding, file: files[slot.holding]! });
  };
  const start = () => {
    const worker = startWorker(setup);
    const slot: Slot = { worker, ready: false, holding: undefined, reason: undefined };
    slots.add(slot);
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') slot.ready = true;
      else if (message.kind === 'setting') setting = message.line;
      else {
        done.set(message.index, { file: files[message.index]!, verdict: message.verdict, seconds: message.seconds });
        slot.holding = undefined;
      }
      if (message.kind !== 'setting') assign(slot);
      notify();
    });
    worker.on('error', (error) => {
      slot.reason = oneLine(error instanceof Error ? error.message : String(error));
    });
    worker.on('exit', (code) => {
      slots.delete(slot);
      if (closing) return;
      const reason = slot.reason ?? `it exited with code ${code}`;
      if (slot.holding !== undefined) crashed(slot.holding, reason);
      // A worker that died on a file is replaced; one that died while starting would die again.
      if (slot.ready && next < files.length) start();
      if (slots.size === 0) while (next < files.length) crashed(next++, reason);
      notify();
    });
  };
  for (let i = 0; i < Math.min(workers, files.length); i++) start();
  try {
    for (let emitted = 0; emitted < files.length; ) {
      if (setting !== undefined) throw new WorkerSettingError(setting);
      const replayed = done.get(emitted);
      if (replayed === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      done.delete(emitted++);
      yield replayed;
    }
  } finally {
    closing = true;
    await Promise.all([...slots].map((slot) => slot.worker.terminate()));
  }
}

/**
 * A worker running replayWorker: dist/cli/replay/replayWorker.js in the built package (an entry of its own, since a
 * bundled module is not next to it), with the parent's node options as Node passes them by default (given
 * explicitly, a V8 flag such as --max-semi-space-size is refused); from source (cli/replay/replayWorker.ts), through
 * tsx's API, since a loader the parent runs under (tsx, a test runner's own) does not reach worker threads.
 */
function startWorker(setup: WorkerSetup): Worker {
  const options = { workerData: setup };
  const root = packageRoot();
  if (root === null) throw new Error(`legate: no package.json above ${fileURLToPath(import.meta.url)}`);
  if (!runsFromSource) return new Worker(join(root, 'dist/cli/replay/replayWorker.js'), options);
  const entry = pathToFileURL(join(root, 'cli/replay/replayWorker.ts')).href;
  const tsx = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  // What `node --import tsx` does: tsx for ES modules and for CommonJS (a config outside an ESM package is one).
  const api = (kind: string) => JSON.stringify(pathToFileURL(join(tsx, `dist/${kind}/api/index.mjs`)).href);
  const code =
    `Promise.all([import(${api('esm')}), import(${api('cjs')})])` +
    `.then((apis) => { for (const tsx of apis) tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true });
}
