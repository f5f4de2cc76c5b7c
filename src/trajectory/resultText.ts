import type { RecordedResult } from './types.js';

/**
 * What the model was told for a tool call, in words: text as it is, a content block by its text or,
 * without one, by its type (and title). `legate show` and the HTML viewer both show it so.
 */
export function resultText(content: RecordedResult['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      const { type, text, title } = block as { type: string; text?: unknown; title?: unknown };
      if (type === 'text' && typeof text === 'string') return text;
      return typeof title === 'string' ? `[${type}: ${title}]` : `[${type}]`;
    })
    .join(' ');
}
