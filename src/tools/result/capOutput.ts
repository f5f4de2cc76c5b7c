import type { TextBlock } from '../../messages/types.js';
import type { RenderedOutput } from './renderOutput.js';

/** What a cap withheld, for the caller's record. */
export interface WithheldOutput {
  /** Characters of text the tool produced. */
  length: number;
  /** Characters the model was shown. */
  shown: number;
}

export interface CappedOutput {
  content: RenderedOutput;
  withheld?: WithheldOutput;
}

/**
 * Applies a tool's `maxResultLength`: text past the cap is replaced by a notice telling the
 * model that data was withheld and how to get it, so it narrows its request instead of
 * reasoning over a silently truncated answer. A cap of 0 means none.
 */
export function capOutput(tool: string, content: RenderedOutput, maxLength: number): CappedOutput {
  if (maxLength <= 0) return { content };
  const length = textLength(content);
  if (length <= maxLength) return { content };
  const notice = withheldNotice(tool, length, maxLength);
  const withheld = { length, shown: maxLength };
  if (typeof content === 'string') return { content: cutText(content, maxLength) + notice, withheld };
  let budget = maxLength;
  const kept: RenderedOutput = [];
  for (const block of content) {
    if (block.type !== 'text') {
      kept.push(block);
      continue;
    }
    if (budget > 0) kept.push({ ...block, text: cutText(block.text, budget) } satisfies TextBlock);
    budget = Math.max(0, budget - block.text.length);
  }
  kept.push({ type: 'text', text: notice.trimStart() });
  return { content: kept, withheld };
}

export function withheldNotice(tool: string, length: number, maxLength: number): string {
  return (
    `\n\n[Output withheld: tool '${tool}' produced ${length} characters, more than its limit of ${maxLength}; ` +
    `only the first ${maxLength} are shown. Narrow the request (filter, paginate, or ask for fewer fields) to ` +
    'see the rest.]'
  );
}

function textLength(content: RenderedOutput): number {
  if (typeof content === 'string') return content.length;
  return content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
}

/** Cuts without splitting a surrogate pair. */
function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? length - 1 : length;
  return text.slice(0, end);
}
