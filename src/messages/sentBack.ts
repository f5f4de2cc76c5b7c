import type { ApiStopReason, ResponseBlock, ToolUseBlock } from './types.js';

/**
 * What of a response goes back into the conversation, the one rule the run loop and a replay's
 * rebuilt conversation share. The API takes a conversation in which every message but an
 * optional final assistant one has content ("all messages must have non-empty content except
 * for the optional final assistant message", its 400), and in which every tool_use is answered by
 * a tool_result in the next user message (docs: tool use, "Handling tool use and tool results").
 */

/**
 * The stop reasons that end a response wherever the model was: the output limit (`max_tokens`), a
 * full context window, a refusal a classifier made mid-response (docs: "Handling stop reasons").
 */
const CUTTING_STOPS: readonly ApiStopReason[] = ['max_tokens', 'model_context_window_exceeded', 'refusal'];

/**
 * The tool_use a response was cut off in: its last block, when that is a tool_use and the response
 * stopped for one of the {@link CUTTING_STOPS}. The API stopped while writing its input, so the
 * input the transport holds (the SDK's guess from partial JSON) is not what the model meant to
 * send (docs: "Handling stop reasons", max_tokens).
 */
export function cutToolUse(response: {
  stop_reason: ApiStopReason | null;
  content: readonly ResponseBlock[];
}): ToolUseBlock | undefined {
  const last = response.content.at(-1);
  const cutting = response.stop_reason !== null && CUTTING_STOPS.includes(response.stop_reason);
  return cutting && last?.type === 'tool_use' ? (last as ToolUseBlock) : undefined;
}

/**
 * The assistant message's content for a response: its blocks without a cut-off tool_use (never
 * sent back as if the model had sent that input), or undefined when nothing is left (a refusal
 * with no content, an empty end_turn): no assistant message is added then, since an empty one is
 * refused by the API on the next request.
 */
export function sentBack(response: {
  stop_reason: ApiStopReason | null;
  content: readonly ResponseBlock[];
}): ResponseBlock[] | undefined {
  const cut = cutToolUse(response);
  const content = cut === undefined ? [...response.content] : response.content.slice(0, -1);
  return content.length === 0 ? undefined : content;
}
