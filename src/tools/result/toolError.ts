import type { ToolResultContent } from '../../messages/types.js';
import { describeValue } from '../../json/describeValue.js';
import { toolResultContentProblem } from './toolResultContent.js';
import { ToolResultError } from './toolResultError.js';

const TOOL_ERROR: unique symbol = Symbol.for('legate.toolError');

/** An error result a tool returns on purpose: the model gets it as an `is_error` tool_result. */
export interface ToolError {
  readonly [TOOL_ERROR]: true;
  /** What the model is told: text, or content blocks. */
  readonly content: string | readonly ToolResultContent[];
}

/**
 * Returns an error result instead of a result: `return toolError('No order A-9; ids look like A-1001.')`.
 * The model gets the content as an `is_error` tool_result, as the tool wrote it, and can act on it;
 * the call's outcome is `error` (see docs/tools.md for what that means for taint and contracts).
 * Use it for an answer the model should correct itself on; throw for a bug, whose message the model
 * never sees. Content blocks are checked as a result's are: a block the API would refuse throws
 * {@link ToolResultError}.
 */
export function toolError(content: string | readonly ToolResultContent[]): ToolError {
  if (typeof content !== 'string') {
    if (!Array.isArray(content) || content.length === 0)
      throw new ToolResultError({
        path: 'content',
        problem: `content is ${describeValue(content)}; expected text or a non-empty list of content blocks`,
      });
    const found = toolResultContentProblem(content);
    if (found !== undefined) throw new ToolResultError(found);
  }
  return Object.freeze({ [TOOL_ERROR]: true as const, content });
}

/** Whether a tool returned {@link toolError}'s value. */
export function isToolError(value: unknown): value is ToolError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR] === true;
}
