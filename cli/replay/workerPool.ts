import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot, runsFromSource } from '../../src/files/packageRoot.js';
import { oneLine } from '../describeError.js';
import type { Verdict } from './fileVerdict.js';
import { NONE, type FromWorker, type WorkerData, type WorkerSetup } from './workerProtocol.js';

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

/** One worker thread: whether it said it was ready, and why it stopped, when it threw. */
interface Slot {
  worker: Worker;
  ready: boolean;
  reason: string | undefined;
}

/**
 * Replays the files on `threads` threads and yields their verdicts in file order, each as soon as it and every file
 * before it are done. This thread is one of them (`here` replays a file in it) and `threads - 1` worker threads
 * start beside it. Every thread takes the next file itself, from a counter in shared memory (Atomics.add), so none
 * waits on another: this thread replays from the first file on while the workers load legate and the config, and a
 * worker takes files as soon as it is ready, even while this thread is busy in a replay that never returns to its
 * event loop (a replay served from a file is synchronous work from one end to the other). A worker not ready by the
 * last file is stopped unused. Each worker writes the index of the file it is replaying to its place in a shared
 * array; a worker that dies (its config throws, it runs out of memory, it exits) gives that file an error verdict
 * and is replaced (unless it died while starting, which a new one would do again); it held no other file. Stopping
 * early (the caller breaks, for --bail) terminates the workers.
 */
export async function* replayInWorkers(
  files: readonly string[],
  threads: number,
  setup: WorkerSetup,
  here: (file: string) => Promise<Replayed>,
): AsyncGenerator<Replayed> {
  const done = new Map<number, Replayed>();
  const slots = new Set<Slot>();
  const workers = Math.min(threads - 1, files.length);
  // The next file's index (the counter every thread takes from), then each worker's place: the file it replays.
  const shared = new Int32Array(new SharedArrayBuffer(4 * (1 + workers)));
  const take = () => Atomics.add(shared, 0, 1);
  const left = () => Atomics.load(shared, 0) < files.length;
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
  const start = (place: number) => {
    Atomics.store(shared, 1 + place, NONE);
    const worker = startWorker({ setup, shared, files, place: 1 + place });
    const slot: Slot = { worker, ready: false, reason: undefined };
    slots.add(slot);
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') slot.ready = true;
      else if (message.kind === 'setting') setting = message.line;
      else done.set(message.index, { file: files[message.index]!, verdict: message.verdict, seconds: message.seconds });
      notify();
    });
    worker.on('error', (error) => {
      slot.reason = oneLine(error instanceof Error ? error.message : String(error));
    });
    worker.on('exit', (code) => {
      slots.delete(slot);
      if (closing) return;
      const replaying = Atomics.load(shared, 1 + place);
      if (replaying !== NONE && !done.has(replaying)) crashed(replaying, slot.reason ?? `it exited with code ${code}`);
      // A worker that died on a file is replaced; one that died while starting would die again.
      if (slot.ready && left()) start(place);
      notify();
    });
  };
  for (let place = 0; place < workers; place++) start(place);
  try {
    for (let emitted = 0; emitted < files.length; ) {
      if (setting !== undefined) throw new WorkerSettingError(setting);
      const replayed = done.get(emitted);
      if (replayed !== undefined) {
        done.delete(emitted++);
        yield replayed;
        continue;
      }
      const index = left() ? take() : files.length;
      if (index < files.length) {
        done.set(index, await here(files[index]!));
        // The workers' messages (verdicts, a crash) are met between this thread's files.
        if (slots.size > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
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
function startWorker(data: WorkerData): Worker {
  const options = { workerData: data };
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
