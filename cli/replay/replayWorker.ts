// A worker thread of `legate replay --workers N`: loads the project's config itself, then replays each file the
// pool sends and posts its verdict back. See workerPool.ts for the protocol.
import { resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { loadProject, TransportError } from '../../src/index.js';
import { registerTypeScriptForThread } from '../../src/files/importModule.js';
import { describeRefusal } from '../describeError.js';
import { replayOne, type ReplayContext } from './replayFile.js';
import type { FromWorker, ToWorker, WorkerSetup } from './workerProtocol.js';

const setup = workerData as WorkerSetup;
// The worker is the command's own thread, as the process is (cli/legate.ts).
registerTypeScriptForThread();
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

const config = setup.config === undefined ? {} : { config: setup.config };
const project = await loadProject({ cwd: setup.cwd, requireConfig: true, ...config });
const context: ReplayContext = { project, runner: { kind: 'cli', ...config }, cwd: setup.cwd };

// The pool sends a file ahead while one is replaying: the files are replayed one after another, in the order sent,
// as in one thread (and a worker that dies, dies on the first it holds).
let replaying = Promise.resolve();
port.on('message', (message: ToWorker) => {
  replaying = replaying.then(() => replayFile(message));
});
post({ kind: 'ready' });

async function replayFile({ index, file }: ToWorker): Promise<void> {
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
  } catch (error) {
    // A setting that fails every file alike stops the whole command, as it does in one process.
    if (error instanceof TransportError && error.setting !== undefined) {
      post({ kind: 'setting', line: describeRefusal(error, setup.cwd) });
      return;
    }
    throw error;
  }
}
