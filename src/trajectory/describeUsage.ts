import type { RecordedTotals, RecordedUsage } from './types.js';

/**
 * A response's usage (as the API reported it, or an older file's counters) or the run's totals, in words:
 * `412 in / 38 out tokens, 100 from cache, 1 web search`. `legate show` and the HTML viewer both say it so.
 */
export function describeUsage(usage: RecordedUsage | RecordedTotals): string {
  const counts =
    'input_tokens' in usage
      ? {
          input: usage.input_tokens,
          output: usage.output_tokens,
          cacheRead: usage.cache_read_input_tokens ?? 0,
          webSearchRequests: usage.server_tool_use?.web_search_requests ?? 0,
          webFetchRequests: usage.server_tool_use?.web_fetch_requests ?? 0,
        }
      : (usage as RecordedTotals);
  const more = [
    counts.cacheRead ? `${counts.cacheRead} from cache` : '',
    counts.webSearchRequests ? plural(counts.webSearchRequests, 'web search', 'web searches') : '',
    counts.webFetchRequests ? plural(counts.webFetchRequests, 'web fetch', 'web fetches') : '',
  ].filter((part) => part !== '');
  return `${counts.input} in / ${counts.output} out tokens${more.map((part) => `, ${part}`).join('')}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
