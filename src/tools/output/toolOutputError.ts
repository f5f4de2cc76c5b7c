import { LegateError } from '../../errors/LegateError.js';
import { formatJsonPath, type JsonPath } from '../../json/jsonPath.js';
import type { InvalidArgumentCode, Refusal } from '../binder/invalidArgument.js';

/**
 * A tool declared an `output` schema and its `run` returned a result that does not match it. The
 * tool has a bug (or its schema does): the call is that tool's failure, the model is told only
 * `Tool '<name>' failed with ToolOutputError.` and the caller gets this error, which says where.
 */
export class ToolOutputError extends LegateError {
  readonly code = 'invalid_tool_output';

  constructor(
    /** The tool whose result was refused. */
    readonly tool: string,
    /** Where in the result the first mismatch is (`[]`: the result as a whole). */
    readonly path: JsonPath,
    /** Why, as the binder names it for a tool's input: `required`, `invalid_type`, `out_of_range`, ... */
    readonly reason: InvalidArgumentCode,
    message: string,
  ) {
    super(message);
  }

  /** The error for a refusal of the check of a tool's result against its output schema. */
  static of(tool: string, refusal: Refusal): ToolOutputError {
    const message =
      `Tool '${tool}' returned a result that does not match its output schema: ${explain(refusal)}. ` +
      'Fix the tool, or its output schema; the model was told only that the tool failed.';
    return new ToolOutputError(tool, [...refusal.path], refusal.code, message);
  }

  /** The error for a result that is text: a tool with an output schema returns the value itself. */
  static text(tool: string): ToolOutputError {
    return new ToolOutputError(
      tool,
      [],
      'invalid_type',
      `Tool '${tool}' declares an output schema but returned text; return the value itself (an object the ` +
        'schema describes), not its JSON text, or toolError(...) for an error the model should read.',
    );
  }
}

function explain(refusal: Refusal): string {
  const { code, expected, arrived, path } = refusal;
  const where = path.length === 0 ? 'the result' : `the result at ${formatJsonPath(path)}`;
  if (code === 'unknown_argument') return `${where} is a property the schema does not declare (${expected})`;
  if (code === 'required') return `${where} is required and must be ${expected}, but ${arrived}`;
  if (refusal.byOwnRule) return `${where} was refused: ${expected}; ${arrived}`;
  return `${where} must be ${expected}, but ${arrived}`;
}
