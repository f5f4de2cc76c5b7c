import type { ReplayGiven } from './replayFile.js';
import type { Verdict } from './fileVerdict.js';

/** What a replay worker starts with (its workerData): enough to load the project's config itself. */
export interface WorkerSetup {
  cwd: string;
  /** --config, when given. */
  config: string | undefined;
  given: ReplayGiven;
  /** Whether the verdicts carry their trajectories back (the html and blob reports show them). */
  wantTrajectories: boolean;
}

/**
 * A worker's workerData: its setup, the run's files, and memory shared with every thread (an Int32Array): at 0 the
 * index of the next file to take (each thread takes one with Atomics.add), at `place` the index of the file this
 * worker is replaying, or NONE.
 */
export interface WorkerData {
  setup: WorkerSetup;
  files: readonly string[];
  shared: Int32Array;
  place: number;
}

/** At a worker's place in the shared memory: it replays no file (it is starting, or between two). */
export const NONE = -1;

/**
 * What a worker says: it is ready (its config loaded), a file's verdict, or a setting error that stops the
 * command (its one line).
 */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'verdict'; index: number; verdict: Verdict; seconds: number }
  | { kind: 'setting'; line: string };
