import type { DocumentBlock, TextBlock, ToolResultContent } from '../../messages/types.js';
import type { RenderedOutput } from './renderOutput.js';

/** What a cap withheld, for the caller's record. */
export interface WithheldOutput {
  /** Characters of text the tool produced. */
  length: number;
  /** Characters the model was shown. */
  shown: number;
}

interface CappedOutput {
  content: RenderedOutput;
  withheld?: WithheldOutput;
}

/**
 * Applies a tool's `maxResultLength`: text past the cap is replaced by a notice telling the
 * model that data was withheld and how to get it, so it narrows its request instead of
 * reasoning over a silently truncated answer. A cap of 0 means none.
 *
 * Of content blocks, the text the model reads counts, in order: text blocks, a search result's
 * text, a plain-text document's data and a custom-content document's text. It is cut where the
 * cap falls; a block nothing is left for is dropped (the API refuses blank text and empty
 * search results). Images, PDFs, files and tool references are not text: kept whole, never counted.
 */
export function capOutput(tool: string, content: RenderedOutput, maxLength: number): CappedOutput {
  if (maxLength <= 0) return { content };
  const length = typeof content === 'string' ? content.length : content.reduce((sum, b) => sum + textLength(b), 0);
  if (length <= maxLength) return { content };
  const notice = withheldNotice(tool, length, maxLength);
  const withheld = { length, shown: maxLength };
  if (typeof content === 'string') return { content: cutText(content, maxLength) + notice, withheld };
  const budget = { left: maxLength };
  const kept = content.flatMap((block) => cutBlock(block, budget) ?? []);
  kept.push({ type: 'text', text: notice.trimStart() });
  return { content: kept, withheld };
}

function withheldNotice(tool: string, length: number, maxLength: number): string {
  return (
    `\n\n[Output withheld: tool '${tool}' produced ${length} characters, more than its limit of ${maxLength}; ` +
    `only the first ${maxLength} are shown. Narrow the request (filter, paginate, or ask for fewer fields) to ` +
    'see the rest.]'
  );
}

/** Characters of text the model reads in a block. */
function textLength(block: ToolResultContent): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'search_result':
      return block.content.reduce((sum, b) => sum + b.text.length, 0);
    case 'document': {
      const source = block.source;
      if (source.type === 'text') return source.data.length;
      if (source.type !== 'content') return 0;
      if (typeof source.content === 'string') return source.content.length;
      return source.content.reduce((sum, b) => sum + (b.type === 'text' ? b.text.length : 0), 0);
    }
    default:
      return 0;
  }
}

/** The block with its text cut to what the budget has left (spent from it), or undefined if nothing is. */
function cutBlock(block: ToolResultContent, budget: { left: number }): ToolResultContent | undefined {
  switch (block.type) {
    case 'text':
      return cutTextBlock(block, budget);
    case 'search_result': {
      const content = block.content.flatMap((b) => cutTextBlock(b, budget) ?? []);
      return content.length === 0 ? undefined : { ...block, content };
    }
    case 'document':
      return cutDocument(block, budget);
    default:
      return block;
  }
}

function cutDocument(block: DocumentBlock, budget: { left: number }): DocumentBlock | undefined {
  const source = block.source;
  if (source.type === 'text') {
    const data = spend(source.data, budget);
    return data === undefined ? undefined : { ...block, source: { ...source, data } };
  }
  if (source.type !== 'content') return block;
  if (typeof source.content === 'string') {
    const content = spend(source.content, budget);
    return content === undefined ? undefined : { ...block, source: { ...source, content } };
  }
  const content = source.content.flatMap((b) => (b.type === 'text' ? (cutTextBlock(b, budget) ?? []) : b));
  return content.length === 0 ? undefined : { ...block, source: { ...source, content } };
}

function cutTextBlock(block: TextBlock, budget: { left: number }): TextBlock | undefined {
  const text = spend(block.text, budget);
  return text === undefined ? undefined : { ...block, text };
}

/** The part of `text` the budget covers, spending it; undefined when no visible text is left. */
function spend(text: string, budget: { left: number }): string | undefined {
  const cut = cutText(text, budget.left);
  budget.left = Math.max(0, budget.left - text.length);
  return cut.trim() === '' ? undefined : cut;
}

/** Cuts without splitting a surrogate pair. */
function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? length - 1 : length;
  return text.slice(0, end);
}
