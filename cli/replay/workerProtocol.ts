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

/** The pool asks a worker to replay the file at `index` of the run's files. */
export interface ToWorker {
  index: number;
  file: string;
}

/**
 * What a worker says: it is ready (its config loaded), a file's verdict, or a setting error that stops the
 * command (its one line).
 */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'verdict'; index: number; verdict: Verdict; seconds: number }
  | { kind: 'setting'; line: string };
