import type { Trajectory } from '../../src/index.js';
import type { ViewVerdict } from '../../src/view/index.js';

/** A file's verdict: passed, or the error's code and the whole message (its test case in a report). */
export interface Verdict {
  ok: boolean;
  code?: string;
  detail: string;
  /** The file's trajectory, when it could be read (the html report shows it). */
  trajectory?: Trajectory;
  /** Where and what, when the replay diverged (the html report marks it at its turn). */
  divergence?: ViewVerdict['divergence'];
  /** The detail is the file's one-line problem, starting with its path (it could not be read or parsed). */
  unreadable?: true;
  /** The file could not be read at all (missing, not a regular file, refused by the system). */
  notRead?: boolean;
  /** For a file of several samples: how many there were, how many passed, and which (1-based) failed. */
  samples?: { total: number; passed: number; failed: number[] };
}

/** The paths given that could not be replayed at all: not there, or folders that could not be listed. */
export interface PathProblems {
  missing: string[];
  unreadable: string[];
}
