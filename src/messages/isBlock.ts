import type { ResponseBlock, TypedBlockType } from './types.js';

/**
 * Narrows a response block to one of the kinds legate types. TypeScript cannot narrow on
 * `block.type === 'text'` alone: an `OtherBlock`'s `type` is any string.
 */
export function isBlock<T extends TypedBlockType>(
  block: ResponseBlock,
  type: T,
): block is Extract<ResponseBlock, { type: T }> {
  return block.type === type;
}
