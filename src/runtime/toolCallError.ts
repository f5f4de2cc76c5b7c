import type { InvalidArgument } from '../tools/binder/invalidArgument.js';

/** A tool's code threw: the caller gets the error; the model only learns the tool and the error's class. */
export interface ToolFailure {
  error: 'tool_failed';
  tool: string;
  /** The error's class name, the only detail the model was told. */
  errorClass: string;
  message: string;
  /** The thrown value itself. Never shown to the model. */
  cause: unknown;
}

/** The model called a tool this agent does not have. */
export interface UnknownTool {
  error: 'unknown_tool';
  tool: string;
  message: string;
  /** The tools the agent does have. */
  available: string[];
}

/**
 * The tool returned an error result (`toolError`): the model was told what the tool wrote (the
 * call's `output`), as an `is_error` result.
 */
export interface ToolReportedError {
  error: 'tool_error';
  tool: string;
}

export type ToolCallError = InvalidArgument | UnknownTool | ToolFailure | ToolReportedError;
