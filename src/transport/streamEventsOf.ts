import { jsonText } from '../json/jsonText.js';
import { isBlock } from '../messages/isBlock.js';
import type { ModelResponse, ResponseBlock } from '../messages/types.js';
import type { StreamEvent } from './transport.js';

/**
 * The canonical stream of a response: what a transport without real streaming (a scripted model, a
 * replay) tells observers, so a replayed run streams exactly as the scripted run it recorded did.
 *
 * For each content block, in order: `block_start` (its `type`, and its `id` and `name` where the block has them:
 * tool_use, server_tool_use, mcp_tool_use), then one delta holding the block's whole content, then `block_stop`.
 * The delta is a `text_delta` for a text block, a `thinking_delta` for a thinking block (each only when not empty),
 * and an `input_json_delta` with the input written as compact JSON for a block that has an `input` (a tool call,
 * the model's or a server tool's). Other blocks (redacted thinking, server tool results, types legate does not
 * know) arrive whole and have no delta, as the API streams them.
 *
 * A tool input the response marks as cut off by `max_tokens` (`incompleteToolUse`) gets the JSON text that arrived
 * as its delta (none when nothing did) and no `block_stop`, as the API streams it.
 *
 * The API splits the same content into many deltas wherever it likes; joined, they are these deltas (the input's
 * JSON text may be spaced differently). A live run's chunking is therefore not what a replay shows.
 */
export function streamEventsOf(response: Pick<ModelResponse, 'content' | 'incompleteToolUse'>): StreamEvent[] {
  const cut = response.incompleteToolUse;
  return response.content.flatMap((block, index): StreamEvent[] => {
    const start: StreamEvent = { type: 'block_start', index, block: startOf(block) };
    if (cut?.index !== index) return [start, ...deltaOf(block, index), { type: 'block_stop', index }];
    // A tool input cut off by max_tokens: the JSON that arrived, and no block_stop, as the API streamed it.
    return cut.partialJson === ''
      ? [start]
      : [start, { type: 'input_json_delta', index, partialJson: cut.partialJson }];
  });
}

function startOf(block: ResponseBlock): { type: string; id?: string; name?: string } {
  const { id, name } = block as { id?: unknown; name?: unknown };
  return {
    type: block.type,
    ...(typeof id === 'string' ? { id } : {}),
    ...(typeof name === 'string' ? { name } : {}),
  };
}

function deltaOf(block: ResponseBlock, index: number): StreamEvent[] {
  if (isBlock(block, 'text')) return block.text === '' ? [] : [{ type: 'text_delta', index, text: block.text }];
  if (isBlock(block, 'thinking'))
    return block.thinking === '' ? [] : [{ type: 'thinking_delta', index, thinking: block.thinking }];
  if (!('input' in block)) return [];
  const partialJson = jsonText(block.input);
  return partialJson === undefined ? [] : [{ type: 'input_json_delta', index, partialJson }];
}
