import { LegateError } from '../../errors/LegateError.js';
import { TOOL_RESULT_BLOCK_TYPES } from '../../messages/knownValues.js';
import type { ContentProblem } from './toolResultContent.js';

/**
 * A tool returned content the Messages API would refuse in a tool_result (a block type it does
 * not take, a field missing or unknown, an image type it does not read). Thrown where the content
 * is made, so the runtime reports it as that tool's failure (`outcome: 'error'`, the model told the
 * class name only) instead of sending a request the API answers with a 400.
 */
export class ToolResultError extends LegateError {
  readonly code = 'invalid_tool_result';
  /** Where in the tool's content, e.g. `content[1].source.media_type`. */
  readonly path: string;
  /** What arrived there and what was expected, in words. */
  readonly problem: string;

  constructor(found: ContentProblem) {
    super(
      `A tool returned content a tool_result cannot hold: ${found.problem}. A tool_result takes text, or a list ` +
        `of content blocks of the types ${TOOL_RESULT_BLOCK_TYPES.join(', ')}, each as the Messages API ` +
        'documents it; return data you mean as data (records, not blocks) as an object, or as JSON text.',
    );
    this.path = found.path;
    this.problem = found.problem;
  }
}
