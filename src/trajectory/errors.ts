/** A trajectory file that cannot be read: where, and what was wrong. */
export class TrajectoryFormatError extends Error {
  override name = 'TrajectoryFormatError';
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
