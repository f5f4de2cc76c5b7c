import type { ToolResultContent } from '../../messages/types.js';
import type { ToolError } from './toolError.js';
import { namesContentBlock, toolResultContentProblem } from './toolResultContent.js';
import { ToolResultError } from './toolResultError.js';

/** What a tool's `run` may return. */
export type ToolOutput =
  | string
  | number
  | boolean
  | null
  | undefined
  | undefined
  | object
  | ToolResultContent[]
  | ToolError
  | AsyncIterable<unknown>;

/** The content of a tool result as the model receives it. */
export type RenderedOutput = string | ToolResultContent[];

/**
 * Collects a tool's return value: an async iterable is drained (its items joined when they
 * are all strings, otherwise kept as an array); anything else is returned as it is.
 */
export async function collectOutput(output: ToolOutput, signal: AbortSignal): Promise<unknown> {
  if (!isAsyncIterable(output)) return output;
  const items: unknown[] = [];
  for await (const item of output) {
    signal.throwIfAborted();
    items.push(item);
  }
  return items.every((item) => typeof item === 'string') ? items.join('') : items;
}

/**
 * Renders a collected value as tool result content: text as it is, content blocks as they
 * are, any other value as JSON. Throws on a value JSON cannot carry (a cycle, a bigint), and
 * {@link ToolResultError} on content blocks the API would refuse; the runtime reports either as
 * a failure of the tool.
 */
export function renderOutput(value: unknown): RenderedOutput {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isContentBlocks(value)) {
    const found = toolResultContentProblem(value);
    if (found !== undefined) throw new ToolResultError(found);
    return value as ToolResultContent[];
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`a tool returned ${typeof value}, which is not JSON`);
  return text;
}

/**
 * A list is meant as content blocks when an item names a block type a tool_result takes (`text`,
 * `image`, `document`, `search_result`, `tool_reference`); it is then checked as such, so a
 * mistaken block is an error rather than JSON the model reads. Any other list (records of your
 * own, even with a `type` field of their own) is data: JSON.
 */
export function isContentBlocks(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.some(namesContentBlock);
}

/** An output that streams: collected (and waited for) item by item. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}
