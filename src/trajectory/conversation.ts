import { sentBack } from '../messages/sentBack.js';
import { isBlock } from '../messages/isBlock.js';
import type {
  ApiUsage,
  Message,
  OtherBlock,
  ModelResponse,
  ResponseBlock,
  ToolResultBlock,
} from '../messages/types.js';
import type { RecordedBlock, RecordedResponse, RecordedResult, RecordedUsage, Trajectory } from './types.js';

/** A response block in the file's readable form: a typed kind by its key, any other block whole under `block`. */
export function toRecordedBlock(block: ResponseBlock): RecordedBlock {
  if (isBlock(block, 'text'))
    return block.citations === undefined ? { text: block.text } : { text: block.text, citations: block.citations };
  if (isBlock(block, 'thinking')) return { thinking: block.thinking, signature: block.signature };
  if (isBlock(block, 'redacted_thinking')) return { redactedThinking: block.data };
  if (isBlock(block, 'tool_use')) {
    const toolUse: RecordedToolUse = { id: block.id, name: block.name, input: block.input };
    if (block.caller !== undefined) toolUse.caller = block.caller;
    if (block.toolset_name !== undefined) toolUse.toolsetName = block.toolset_name;
    return { toolUse };
  }
  return { block: block as OtherBlock };
}

type RecordedToolUse = Extract<RecordedBlock, { toolUse: unknown }>['toolUse'];

/** A recorded block back in Messages API form. */
export function fromRecordedBlock(block: RecordedBlock): ResponseBlock {
  if ('text' in block)
    return block.citations === undefined
      ? { type: 'text', text: block.text }
      : { type: 'text', text: block.text, citations: block.citations };
  if ('thinking' in block) return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if ('redactedThinking' in block) return { type: 'redacted_thinking', data: block.redactedThinking };
  if ('toolUse' in block) {
    const { id, name, input, caller, toolsetName } = block.toolUse;
    const toolUse: ResponseBlock = { type: 'tool_use', id, name, input };
    if (caller !== undefined) toolUse.caller = caller;
    if (toolsetName !== undefined) toolUse.toolset_name = toolsetName;
    return toolUse;
  }
  return 'block' in block ? block.block : block.server;
}

/** A response as a file records it: the conversation's blocks, and what the API said about the response. */
export function toRecordedResponse(response: ModelResponse): RecordedResponse {
  const recorded: RecordedResponse = {
    id: response.id,
    model: response.model,
    stopReason: response.stop_reason,
    usage: toRecordedUsage(response.usage),
    content: response.content.map(toRecordedBlock),
  };
  if (response.stop_sequence) recorded.stopSequence = response.stop_sequence;
  if (response.stop_details !== undefined) recorded.stopDetails = response.stop_details;
  if (response.container !== undefined) recorded.container = response.container;
  if (response.context_management !== undefined)
    recorded.contextManagement = response.context_management as RecordedResponse['contextManagement'];
  if (response.incompleteToolUse !== undefined) recorded.incompleteToolUse = { ...response.incompleteToolUse };
  return recorded;
}

/** A recorded response as the transport returned it. */
export function toModelResponse(response: RecordedResponse): ModelResponse {
  const model: ModelResponse = {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content: response.content.map(fromRecordedBlock),
    stop_reason: response.stopReason,
    stop_sequence: response.stopSequence ?? null,
    usage: fromRecordedUsage(response.usage),
  };
  if (response.stopDetails !== undefined) model.stop_details = response.stopDetails;
  if (response.container !== undefined) model.container = response.container;
  if (response.contextManagement !== undefined) model.context_management = response.contextManagement;
  if (response.incompleteToolUse !== undefined) model.incompleteToolUse = { ...response.incompleteToolUse };
  return model;
}

/** A response's usage as a file records it: the API's report, whole. */
export function toRecordedUsage(usage: ApiUsage): RecordedUsage {
  return { ...usage };
}

/** A recorded usage as the API reported it; an older file's four counters in the API's names. */
function fromRecordedUsage(usage: RecordedUsage): ApiUsage {
  if ('input_tokens' in usage) return { ...usage } as ApiUsage;
  const legacy = usage as Extract<RecordedUsage, { input: number }>;
  const reported: ApiUsage = { input_tokens: legacy.input, output_tokens: legacy.output };
  if (legacy.cacheCreation !== undefined) reported.cache_creation_input_tokens = legacy.cacheCreation;
  if (legacy.cacheRead !== undefined) reported.cache_read_input_tokens = legacy.cacheRead;
  return reported;
}

/** The tool_result block a recorded result stands for. */
function toToolResultBlock(result: RecordedResult): ToolResultBlock {
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: result.id, content: result.content };
  if (result.outcome !== 'ok') block.is_error = true;
  return block;
}

/**
 * The messages a recorded turn added to the conversation, by the runtime's rule ({@link sentBack}):
 * the response without a cut-off tool_use (none when nothing is left), then the results of the
 * tool_uses it kept, in one user message.
 */
function messagesOfTurn(recorded: Trajectory['turns'][number]): Message[] {
  const content = sentBack({
    stop_reason: recorded.response.stopReason,
    content: recorded.response.content.map(fromRecordedBlock),
  });
  if (content === undefined) return [];
  const kept = new Set(content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])));
  const results = (recorded.results ?? []).filter((result) => kept.has(result.id));
  const messages: Message[] = [{ role: 'assistant', content }];
  if (results.length > 0) messages.push({ role: 'user', content: results.map(toToolResultBlock) });
  return messages;
}

/**
 * The conversation as the runtime had it when it asked the model for turn `turn` (1-based):
 * the input, then every earlier response and the tool results that answered it.
 */
export function conversationBefore(trajectory: Trajectory, turn: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: trajectory.input }];
  for (const recorded of trajectory.turns.slice(0, turn - 1)) messages.push(...messagesOfTurn(recorded));
  return messages;
}

/**
 * The whole conversation (as {@link conversationBefore} the turn after the last) and how many of its messages each
 * turn was asked for with, turn by turn: each turn's messages made once.
 */
export function conversationAndCounts(trajectory: Trajectory): { conversation: Message[]; counts: number[] } {
  const conversation: Message[] = [{ role: 'user', content: trajectory.input }];
  const counts = trajectory.turns.map((recorded) => {
    const before = conversation.length;
    for (const message of messagesOfTurn(recorded)) conversation.push(message);
    return before;
  });
  return { conversation, counts };
}
