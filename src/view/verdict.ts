import type { AuditReport } from '../guard/audit/auditReport.js';
import type { Trajectory } from '../trajectory/types.js';

/** A replay's verdict on a file, as the page shows it. */
export interface ViewVerdict {
  status: 'passed' | 'diverged' | 'missing' | 'error';
  /** For 'diverged': where and what (from TrajectoryDivergenceError: kind, turn, path, expected, actual, message). */
  divergence?: { turn: number; path: string; expected: unknown; actual: unknown; message: string; kind?: string };
  /** For 'missing' / 'error' (and 'diverged' for a file of several samples): one line. */
  message?: string;
  /** For a file of several samples: how many there were, how many passed, and which (1-based) failed. */
  samples?: { total: number; passed: number; failed: readonly number[] };
}

/**
 * One file of the page: its trajectory (undefined when it could not be read), after a replay its verdict, and the
 * report of its audit (`auditTrajectory`), whose findings and taint path the page shows as a recorded guard's.
 */
export interface ViewEntry {
  file: string;
  trajectory: Trajectory | undefined;
  verdict?: ViewVerdict;
  audit?: AuditReport;
}
