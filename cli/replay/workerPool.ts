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

/**
 * Files a worker holds at once: the one it replays and the next, sent ahead so that it never waits on this thread,
 * which may be replaying a file of its own when the worker finishes one.
 */
const HELD = 2;

/** One worker thread and the files it holds (their indexes). */
interface Slot {
  worker: Worker;
  ready: boolean;
  holding: number[];
  /** Why it stopped, when it threw. */
  reason: string | undefined;
}

/**
 * Replays the files on `threads` threads and yields their verdicts in file order, each as soon as it and every file
 * before it are done. This thread is one of them (`here` replays a file in it) and `threads - 1` worker threads
 * start beside it: this thread replays the next file whenever it has no verdict to give, from the first file on,
 * while the workers load legate and the config, so a worker costs this thread nothing until it is ready, and one
 * not ready by the last file is stopped unused. Each worker holds the next files (HELD) and takes another when it
 * finishes one. A worker that dies (its config throws, it runs out of memory, it exits) gives the file it was
 * replaying an error verdict, hands back the one it held next, and is replaced (unless it died while starting,
 * which a new one would do again); this thread replays whatever no worker takes: the pool never hangs. Stopping
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
  let next = 0;
  /** Files a worker that died held without having started them: taken again before the next. */
  const handedBack: number[] = [];
  const left = () => handedBack.length > 0 || next < files.length;
  const take = () => handedBack.shift() ?? next++;
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
    while (!closing && slot.ready && slot.holding.length < HELD && left()) {
      const index = take();
      slot.holding.push(index);
      slot.worker.postMessage({ index, file: files[index]! });
    }
  };
  const start = () => {
    const worker = startWorker(setup);
    const slot: Slot = { worker, ready: false, holding: [], reason: undefined };
    slots.add(slot);
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') slot.ready = true;
      else if (message.kind === 'setting') setting = message.line;
      else {
        done.set(message.index, { file: files[message.index]!, verdict: message.verdict, seconds: message.seconds });
        slot.holding = slot.holding.filter((index) => index !== message.index);
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
      // A worker replays the files it holds in the order it was sent them: it died on the first.
      const [replaying, ...notStarted] = slot.holding;
      if (replaying !== undefined) crashed(replaying, reason);
      handedBack.push(...notStarted);
      handedBack.sort((a, b) => a - b);
      // A worker that died on a file is replaced; one that died while starting would die again.
      if (slot.ready && left()) start();
      for (const other of slots) assign(other);
      notify();
    });
  };
  for (let i = 0; i < Math.min(threads - 1, files.length); i++) start();
  try {
    for (let emitted = 0; emitted < files.length; ) {
      if (setting !== undefined) throw new WorkerSettingError(setting);
      const replayed = done.get(emitted);
      if (replayed === undefined && left()) {
        const index = take();
        done.set(index, await here(files[index]!));
        continue;
      }
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
