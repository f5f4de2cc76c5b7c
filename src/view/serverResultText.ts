import { isPlainObject } from '../json/jsonValue.js';
import { prettyJson } from './prettyJson.js';

/**
 * What a server tool's result block (a web search's, a web fetch's) brought back, for a reader: each
 * result by its title and address, an error by its code. Encrypted content is left out (no one can read
 * it); a block of another shape is shown whole, as JSON.
 */
export function serverResultText(block: Record<string, unknown>): string {
  const { content } = block;
  if (isPlainObject(content) && typeof content.error_code === 'string') return `error: ${content.error_code}`;
  const items = Array.isArray(content) ? content : isPlainObject(content) ? [content] : undefined;
  if (items === undefined || !items.every(isPlainObject) || !items.some((item) => 'url' in item || 'title' in item))
    return prettyJson(block);
  return items
    .map((item) => {
      const title = typeof item.title === 'string' ? item.title : `[${String(item.type)}]`;
      const url = typeof item.url === 'string' ? `\n  ${item.url}` : '';
      const age = typeof item.page_age === 'string' ? ` (${item.page_age})` : '';
      return `${title}${age}${url}`;
    })
    .join('\n');
}
