import { LegateError } from '../../errors/LegateError.js';
import type { DeclarationProblem } from '../declarationError.js';

/**
 * A run's `output` schema cannot be asked for: legate cannot check it, or the API's structured
 * outputs cannot express it. Thrown by `agent.run` before any model call; `problems` lists every
 * place to fix, with paths like `output.properties.tags`.
 */
export class OutputSchemaError extends LegateError {
  readonly code = 'invalid_output_schema';

  constructor(
    message: string,
    /** Every problem found, in schema order; paths like `output.properties.tags`. */
    readonly problems: readonly DeclarationProblem[],
  ) {
    super(message);
  }

  /** One error naming every problem. */
  static of(problems: readonly DeclarationProblem[]): OutputSchemaError {
    const lead = "The run's output schema cannot be used for a structured answer";
    const listed = problems.map((p, i) => `(${i + 1}) at ${p.path}: ${p.problem}`).join(' ');
    const first = problems[0]!;
    const message =
      problems.length === 1
        ? `${lead} at ${first.path}: ${first.problem}`
        : `${lead} at ${problems.length} places: ${listed}`;
    return new OutputSchemaError(message, problems);
  }
}
