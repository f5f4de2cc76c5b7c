// A worker thread of `legate replay --workers N`: loads the project's config itself, then replays each file the
// pool's shared counter gives it and posts each verdict back. See workerPool.ts for the protocol.
import { resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { loadProject, TransportError } from '../../src/index.js';
import { registerTypeScriptForThread } from '../../src/files/importModule.js';
import { describeRefusal } from '../describeError.js';
import { replayOne, type ReplayContext } from './replayFile.js';
import { NONE, type FromWorker, type WorkerData } from './workerProtocol.js';

const { setup, files, shared, place } = workerData as WorkerData;
// The worker is the command's own thread, as the process is (cli/legate.ts).
registerTypeScriptForThread();
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

const config = setup.config === undefined ? {} : { config: setup.config };
const project = await loadProject({ cwd: setup.cwd, requireConfig: true, ...config });
const context: ReplayContext = { project, runner: { kind: 'cli', ...config }, cwd: setup.cwd };
post({ kind: 'ready' });

// The next file, taken from the counter every thread shares, until none is left: replayed one after another, as in
// one thread. Its index is at this worker's place while it replays, so that the pool blames it if the worker dies.
for (;;) {
  const index = Atomics.add(shared, 0, 1);
  if (index >= files.length) break;
  Atomics.store(shared, place, index);
  if (!(await replayFile(index, files[index]!))) break;
  Atomics.store(shared, place, NONE);
}
// Alive until the pool terminates it: an exit of its own would race its last verdict to the pool.
port.on('message', () => {});

/** Replays a file and posts its verdict; false after a setting error (posted), which stops the command. */
async function replayFile(index: number, file: string): Promise<boolean> {
  const started = performance.now();
  try {
    const verdict = await replayOne(resolve(setup.cwd, file), file, context, setup.given);
    const seconds = (performance.now() - started) / 1000;
    const sent = setup.wantTrajectories ? verdict : { ...verdict, trajectory: undefined };
    try {
      post({ kind: 'verdict', index, verdict: sent, seconds });
    } catch {
      // A value structured clone cannot copy (a recorded value the divergence holds): the verdict without it.
      post({ kind: 'verdict', index, verdict: { ...sent, trajectory: undefined, divergence: undefined }, seconds });
    }
    return true;
  } catch (error) {
    // A setting that fails every file alike stops the whole command, as it does in one process.
    if (error instanceof TransportError && error.setting !== undefined) {
      post({ kind: 'setting', line: describeRefusal(error, setup.cwd) });
      return false;
    }
    throw error;
  }
}
