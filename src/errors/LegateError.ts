/**
 * The base of every error legate throws. `code` is stable and machine-readable (a test, a CI
 * script or a dashboard keys on it; the message may be reworded); `name` is the class name.
 * Catch `LegateError` to tell legate's refusals from a bug in your own code.
 */
export abstract class LegateError extends Error {
  /** Stable, snake_case: what went wrong, e.g. `trajectory_divergence`, `invalid_tool_name`. */
  abstract readonly code: string;
  /**
   * Raised inside a tool (a sub-agent's run is a tool), an error with `abortsRun` stops the whole
   * run instead of becoming that tool's `is_error` result: replay divergences and an exhausted
   * script are facts about the test, not about the tool.
   */
  readonly abortsRun: boolean = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}
