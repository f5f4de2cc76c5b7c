import { cutToolUse } from '../messages/sentBack.js';
import type { ApiStopReason, ModelResponse, ToolResultBlock, ToolUseBlock } from '../messages/types.js';
import type { ToolCall } from './agentResult.js';
import type { EventLog } from './events.js';
import type { RunConfig } from './runConfig.js';
import type { RunState } from './agentResult.js';

/** What the model is told for a complete call of a response that stopped without asking for its calls to run. */
function notRunMessage(stopReason: ApiStopReason | null, maxTokens: number): string {
  const why =
    stopReason === 'max_tokens'
      ? `your response was cut off by the output limit (max_tokens ${maxTokens}) before it ended`
      : stopReason === 'model_context_window_exceeded'
        ? "your response was cut off when the conversation filled the model's context window"
        : stopReason === 'refusal'
          ? 'your response ended in a refusal'
          : `your response stopped (stop_reason ${String(stopReason)}) without asking for its tool calls to run`;
  return `Not run: ${why}, so none of its tool calls ran. Call the tool again if it is still needed.`;
}

/** What is recorded for the call the cut fell in; the model is never shown it (the block is not sent back). */
const CUT_OFF_MESSAGE = 'Cut off while the model was writing its input: not run, and not sent back to the model.';

/**
 * Answers the tool calls of a response that stopped for another reason than `tool_use` (cut off
 * by `max_tokens` or a full context window, a refusal) without running any: the model did not
 * finish its turn, so what it would have done with them is unknown. Each call's outcome is
 * `incomplete`. The call the cut fell in (the response's last block) has no input (none was sent
 * whole) and is not in the conversation (see `sentBack`); the complete ones are, and are each
 * answered with an is_error tool_result saying they did not run, in one user message, so the
 * conversation can go on (the API wants every tool_use answered in the next user message).
 */
export function answerIncomplete(
  config: RunConfig,
  state: RunState,
  response: ModelResponse,
  toolUses: readonly ToolUseBlock[],
  turn: number,
  log: EventLog,
): void {
  const cut = cutToolUse(response);
  config.run.replay?.checkDecisions(
    turn,
    toolUses.map((block) => ({ id: block.id, name: block.name, decision: { outcome: 'incomplete' } })),
  );
  const results: ToolResultBlock[] = [];
  for (const block of toolUses) {
    const isCut = block === cut;
    const call: ToolCall = {
      id: block.id,
      name: block.name,
      input: isCut ? undefined : block.input,
      outcome: 'incomplete',
      output: isCut ? CUT_OFF_MESSAGE : notRunMessage(response.stop_reason, config.agent.maxTokens),
      turn,
    };
    log.emit({
      type: 'tool_called',
      agent: config.agent.name,
      turn,
      id: call.id,
      name: call.name,
      input: call.input,
      decision: { outcome: 'incomplete' },
    });
    state.toolCalls.push(call);
    log.emit({ type: 'tool_finished', agent: config.agent.name, turn, call });
    if (!isCut)
      results.push({ type: 'tool_result', tool_use_id: block.id, content: call.output as string, is_error: true });
  }
  if (results.length > 0) state.messages.push({ role: 'user', content: results });
}
