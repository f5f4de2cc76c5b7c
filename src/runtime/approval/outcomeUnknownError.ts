import type { ToolUseBlock } from '../../messages/types.js';
import { LegateError } from '../../errors/LegateError.js';
import type { ToolCall } from '../agentResult.js';

/** An approved call whose process stopped after it started and before its outcome was recorded. */
export class OutcomeUnknownError extends LegateError {
  readonly code = 'outcome_unknown';
  constructor(
    readonly tool: string,
    readonly callId: string,
  ) {
    super(
      `Approved call ${callId} ('${tool}') was started by a resume whose process stopped before its outcome ` +
        'was recorded; it was not run again. Check whether its effect happened.',
    );
  }
}

/** How such a call is answered: an error the model is told to report, with an `OutcomeUnknownError` as its cause. */
export function outcomeUnknownCall(block: ToolUseBlock, turn: number): ToolCall {
  const message =
    `Tool '${block.name}' was approved and started, but the process running it stopped before its outcome was ` +
    'recorded. It was not run again, so its effect may or may not have happened. Do not call it again; tell the ' +
    'user it needs checking.';
  return {
    id: block.id,
    name: block.name,
    input: block.input,
    outcome: 'error',
    output: message,
    turn,
    error: {
      error: 'tool_failed',
      tool: block.name,
      errorClass: 'OutcomeUnknownError',
      message,
      cause: new OutcomeUnknownError(block.name, block.id),
    },
  };
}
