import { isPlainObject } from '../../json/jsonValue.js';
import type { ToolResultContent } from '../../messages/types.js';

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
 * are, any other value as JSON. Throws on a value JSON cannot carry (a cycle, a bigint),
 * which the runtime reports as a failure of the tool.
 */
export function renderOutput(value: unknown): RenderedOutput {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isContentBlocks(value)) return value;
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`a tool returned ${typeof value}, which is not JSON`);
  return text;
}

/** Content blocks are recognised strictly: a non-empty array of well-formed text or image blocks. */
export function isContentBlocks(value: unknown): value is ToolResultContent[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (block) =>
        isPlainObject(block) &&
        ((block.type === 'text' && typeof block.text === 'string') ||
          (block.type === 'image' && isPlainObject(block.source))),
    )
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}
