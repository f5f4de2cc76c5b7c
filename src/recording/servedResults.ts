import type { ToolUseBlock } from '../messages/types.js';
import type { ToolCall, ToolCallError } from '../runtime/agentResult.js';
import type { ToolStub } from '../runtime/executeToolCall.js';
import { missingToolResult, type DivergenceContext } from '../trajectory/divergence.js';
import type { RecordedResult, Trajectory } from '../trajectory/types.js';

/**
 * A tool stub that answers calls from the recording instead of running the tools: for all
 * tools (`true`) or the named ones. A served tool with no recorded result is a divergence.
 */
export function servedResults(
  trajectory: Trajectory,
  which: true | readonly string[],
  context: DivergenceContext,
): ToolStub {
  const byId = new Map<string, RecordedResult>();
  for (const turn of trajectory.turns) for (const result of turn.results ?? []) byId.set(result.id, result);
  const serves = (name: string) => which === true || which.includes(name);
  return (block: ToolUseBlock, turn: number) => {
    if (!serves(block.name)) return undefined;
    const recorded = byId.get(block.id);
    // Only a result the tool produced by running can stand in for running it; a call the
    // recording shows refused or planned now reaching the tool is a change of behaviour.
    if (
      recorded === undefined ||
      recorded.tool !== block.name ||
      (recorded.outcome !== 'ok' && recorded.outcome !== 'error')
    ) {
      throw missingToolResult(context, turn, block.id, block.name);
    }
    return toToolCall(recorded, block, turn);
  };
}

function toToolCall(recorded: RecordedResult, block: ToolUseBlock, turn: number): ToolCall {
  const outcome =
    recorded.outcome === 'ok' || recorded.outcome === 'error' || recorded.outcome === 'invalid'
      ? recorded.outcome
      : 'error';
  const call: ToolCall = {
    id: block.id,
    name: block.name,
    input: block.input,
    outcome,
    output: recorded.content,
    turn,
  };
  const error = recordedError(recorded);
  if (error !== undefined) call.error = error;
  if (recorded.withheld !== undefined) call.withheld = recorded.withheld;
  return call;
}

function recordedError(recorded: RecordedResult): ToolCallError | undefined {
  const message = typeof recorded.content === 'string' ? recorded.content : '';
  if (recorded.errorClass !== undefined) {
    return { error: 'tool_failed', tool: recorded.tool, errorClass: recorded.errorClass, message, cause: undefined };
  }
  return undefined;
}
