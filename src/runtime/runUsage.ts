import type { ModelResponse } from '../messages/types.js';
import { counterIn, USAGE_COUNTERS, type UsageCounter } from '../messages/usageCounters.js';

/**
 * The run's usage: each counter the API reports, summed over every model call of the run (a
 * sub-agent's calls included). A counter a response did not report counts as 0. Each
 * response's usage, whole and as reported, is in `responses[i].usage`.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** Of the cache-creation tokens, those written for a 5-minute cache entry (`cache_creation`). */
  cacheCreation5mInputTokens: number;
  /** Of the cache-creation tokens, those written for a 1-hour cache entry (`cache_creation`). */
  cacheCreation1hInputTokens: number;
  /** Searches the web search server tool made (`server_tool_use`; billed). */
  webSearchRequests: number;
  /** Fetches the web fetch server tool made (`server_tool_use`). */
  webFetchRequests: number;
  /** Of the output tokens, those spent thinking (`output_tokens_details`). */
  thinkingTokens: number;
}

const COUNTERS = Object.keys(USAGE_COUNTERS) as UsageCounter[];

export function emptyUsage(): Usage {
  const usage: Record<UsageCounter, number> = Object.fromEntries(COUNTERS.map((counter) => [counter, 0])) as never;
  return usage;
}

/** Adds a response's reported usage to the run's. */
export function addUsage(total: Usage, response: ModelResponse): void {
  for (const counter of COUNTERS) total[counter] += counterIn(response.usage, counter);
}

/** Adds usage summed elsewhere (a sub-agent's run) to the run's; a counter it lacks counts as 0. */
export function addUsageTotals(total: Usage, usage: Readonly<Partial<Record<keyof Usage, number>>>): void {
  for (const counter of COUNTERS) total[counter] += usage[counter] ?? 0;
}
