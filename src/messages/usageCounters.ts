/**
 * The counters of a response's usage that legate checks and sums over a run: each by the name
 * a run's total gives it, and where the API reports it (a top-level field, or one inside a
 * breakdown: `cache_creation`, `server_tool_use`, `output_tokens_details`). Every one is a
 * whole number; `input_tokens` and `output_tokens` are always there, the others (and the
 * breakdowns) may be absent or null. Any other usage field is kept as reported, not summed.
 */
export const USAGE_COUNTERS = {
  inputTokens: ['input_tokens'],
  outputTokens: ['output_tokens'],
  cacheCreationInputTokens: ['cache_creation_input_tokens'],
  cacheReadInputTokens: ['cache_read_input_tokens'],
  /** Of the cache-creation tokens, those written for a 5-minute cache entry. */
  cacheCreation5mInputTokens: ['cache_creation', 'ephemeral_5m_input_tokens'],
  /** Of the cache-creation tokens, those written for a 1-hour cache entry. */
  cacheCreation1hInputTokens: ['cache_creation', 'ephemeral_1h_input_tokens'],
  /** Web searches the web search server tool made (billed per search). */
  webSearchRequests: ['server_tool_use', 'web_search_requests'],
  /** Fetches the web fetch server tool made. */
  webFetchRequests: ['server_tool_use', 'web_fetch_requests'],
  /** Of the output tokens, those the model spent thinking. */
  thinkingTokens: ['output_tokens_details', 'thinking_tokens'],
} as const satisfies Record<string, readonly [string] | readonly [string, string]>;

export type UsageCounter = keyof typeof USAGE_COUNTERS;

/** The counters every usage report has. */
export const REQUIRED_USAGE_COUNTERS: readonly UsageCounter[] = ['inputTokens', 'outputTokens'];

/** The breakdowns holding counters (`cache_creation`, ...): objects, or null. */
export const USAGE_BREAKDOWNS: readonly string[] = [
  ...new Set(Object.values(USAGE_COUNTERS).flatMap((path) => (path.length === 2 ? [path[0]] : []))),
];

/** A counter's value in a usage report: 0 where the report does not give it (absent, or null). */
export function counterIn(usage: Readonly<Record<string, unknown>>, counter: UsageCounter): number {
  let value: unknown = usage;
  for (const key of USAGE_COUNTERS[counter]) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' ? value : 0;
}
