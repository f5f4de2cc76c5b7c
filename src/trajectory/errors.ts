import { LegateError } from '../errors/LegateError.js';

/** A trajectory file that cannot be read: where, and what was wrong. */
export class TrajectoryFormatError extends LegateError {
  /**
   * `invalid_trajectory` for a file that was read and is not a valid trajectory; a {@link TrajectoryFileError}'s own
   * code otherwise.
   */
  readonly code: 'invalid_trajectory' | TrajectoryFileProblem = 'invalid_trajectory';
  constructor(
    /** What was wrong, without the location. */
    readonly problem: string,
    readonly file: string,
    /** 1-based, where known. */
    readonly line: number | undefined,
    readonly column: number | undefined,
    /** The field, e.g. `turns[2].response.usage.input`, where the problem is in a field. */
    readonly path: string | undefined,
  ) {
    super(`${TrajectoryFormatError.location(file, line, column)}: ${problem}`);
  }

  static location(file: string, line: number | undefined, column: number | undefined): string {
    return line === undefined ? file : `${file}:${line}:${column ?? 1}`;
  }
}

/** Why a trajectory file was not read at all: not a regular file, over the size limit, or refused by the system. */
export type TrajectoryFileProblem = 'not_a_file' | 'too_large' | 'unreadable';

/**
 * A trajectory file that was not read: a directory, a FIFO or a device where a file was expected,
 * a file over the size limit, or one the system would not open or read. A
 * {@link TrajectoryFormatError} without a line; `code` says which.
 */
export class TrajectoryFileError extends TrajectoryFormatError {
  override name = 'TrajectoryFileError';
  constructor(
    override readonly code: TrajectoryFileProblem,
    problem: string,
    file: string,
    options?: { cause?: unknown },
  ) {
    super(problem, file, undefined, undefined, undefined);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
