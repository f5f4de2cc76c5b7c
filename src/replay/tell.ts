import type { TrajectoryRunOptions } from './trajectoryRunOptions.js';

/** Tells the caller what a run should know (see the `report` option): to its function, else to standard error. */
export function tell(options: Pick<TrajectoryRunOptions, 'report'>, message: string): void {
  if (options.report === false) return;
  if (options.report !== undefined) options.report(message);
  else process.stderr.write(`legate: ${message}\n`);
}
