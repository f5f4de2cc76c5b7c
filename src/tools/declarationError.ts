import { LegateError } from '../errors/LegateError.js';
/**
 * Mistakes in a tool declaration, found when the tool is defined or the agent is built,
 * never when the model calls the tool. Each has a stable code a test or a linter can key on.
 */
export type DeclarationErrorCode =
  /** `defineTool` was given something other than a declaration object. */
  | 'not_a_declaration'
  | 'invalid_tool_name'
  | 'duplicate_tool_name'
  | 'missing_run'
  | 'invalid_schema'
  | 'unsupported_schema'
  /** A `pattern` that cannot run in linear time (a lookaround, a backreference, ...). */
  | 'unsupported_pattern'
  | 'invalid_default'
  /**
   * A property name at the top level of the input the Messages API refuses (`DateSent<`, `q[]`, a
   * 65-character name): every request carrying the tool would fail with a 400.
   */
  | 'invalid_property_name'
  | 'negative_max_result_length'
  | 'invalid_option'
  /** `serverTool` (or an agent's `tools`) was given something that is not a server tool definition. */
  | 'invalid_server_tool';

export type DeclarationWarningCode =
  | 'missing_description'
  /**
   * A keyword written on a type it does not apply to (`minimum` on a string): JSON Schema ignores
   * it, and so does the binder.
   */
  | 'inapplicable_keyword';

/** One thing wrong in a declaration: where, why (a stable code), and what to do, in words. */
export interface DeclarationProblem {
  code: DeclarationErrorCode;
  /** Where in the declaration, e.g. `input.properties.tags.items`. */
  path: string;
  problem: string;
}

export class ToolDeclarationError extends LegateError {
  /** Every problem found, in declaration order; the first is also `code` and `path`. */
  readonly problems: readonly DeclarationProblem[];

  constructor(
    readonly code: DeclarationErrorCode,
    /** The tool's name as declared (possibly itself the problem). */
    readonly tool: string,
    /** Where in the declaration, e.g. `input.properties.tags.items`: the first place, if there are several. */
    readonly path: string,
    message: string,
    problems?: readonly DeclarationProblem[],
  ) {
    super(message);
    this.problems = problems ?? [{ code, path, problem: message }];
  }
}

export interface ToolDeclarationWarning {
  code: DeclarationWarningCode;
  tool: string;
  path: string;
  message: string;
}
