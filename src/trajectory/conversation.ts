import { sentBack } from '../messages/sentBack.js';
import type { Message, ModelResponse, ResponseBlock, ToolResultBlock } from '../messages/types.js';
import type { RecordedBlock, RecordedResponse, RecordedResult, RecordedUsage, Trajectory } from './types.js';

/** A response block in the file's readable form. */
export function toRecordedBlock(block: ResponseBlock): RecordedBlock {
  switch (block.type) {
    case 'text':
      return block.citations === undefined ? { text: block.text } : { text: block.text, citations: block.citations };
    case 'thinking':
      return { thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { redactedThinking: block.data };
    case 'tool_use':
      return { toolUse: { id: block.id, name: block.name, input: block.input } };
    default:
      return { server: block };
  }
}

/** A recorded block back in Messages API form. */
export function fromRecordedBlock(block: RecordedBlock): ResponseBlock {
  if ('text' in block)
    return block.citations === undefined
      ? { type: 'text', text: block.text }
      : { type: 'text', text: block.text, citations: block.citations };
  if ('thinking' in block) return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if ('redactedThinking' in block) return { type: 'redacted_thinking', data: block.redactedThinking };
  if ('toolUse' in block)
    return { type: 'tool_use', id: block.toolUse.id, name: block.toolUse.name, input: block.toolUse.input };
  return block.server;
}

/** A recorded response as the transport returned it. */
export function toModelResponse(response: RecordedResponse): ModelResponse {
  const usage: ModelResponse['usage'] = { input_tokens: response.usage.input, output_tokens: response.usage.output };
  if (response.usage.cacheCreation !== undefined) usage.cache_creation_input_tokens = response.usage.cacheCreation;
  if (response.usage.cacheRead !== undefined) usage.cache_read_input_tokens = response.usage.cacheRead;
  return {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content: response.content.map(fromRecordedBlock),
    stop_reason: response.stopReason,
    stop_sequence: response.stopSequence ?? null,
    usage,
  };
}

export function toRecordedUsage(usage: ModelResponse['usage']): RecordedUsage {
  const recorded: RecordedUsage = { input: usage.input_tokens, output: usage.output_tokens };
  if (usage.cache_creation_input_tokens) recorded.cacheCreation = usage.cache_creation_input_tokens;
  if (usage.cache_read_input_tokens) recorded.cacheRead = usage.cache_read_input_tokens;
  return recorded;
}

/** The tool_result block a recorded result stands for. */
export function toToolResultBlock(result: RecordedResult): ToolResultBlock {
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

/** How many messages the conversation held when each turn was asked for, turn by turn. */
export function messageCounts(trajectory: Trajectory): number[] {
  let length = 1;
  return trajectory.turns.map((recorded) => {
    const before = length;
    length += messagesOfTurn(recorded).length;
    return before;
  });
}
