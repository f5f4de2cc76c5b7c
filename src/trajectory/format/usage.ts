import type * as z from 'zod';
import type { ApiUsage } from '../../messages/types.js';
import { REQUIRED_USAGE_COUNTERS, USAGE_COUNTERS, type UsageCounter } from '../../messages/usageCounters.js';
import { count, either, flow, free, mapping, openMapping, text, typedAs } from './values.js';

/** Usage in a file: each response's, as the API reported it, and the run's totals in the summary. */

/**
 * A response's usage as files recorded it before the API's report was kept whole: four counters,
 * by legate's names. Still read (and written back as it was read).
 */
const legacyUsage = mapping({
  input: count(),
  output: count(),
  cacheCreation: count().optional(),
  cacheRead: count().optional(),
});

/**
 * The API's usage report, whole and in its own names: the counters legate knows checked where
 * they are (top level, or in their breakdown), every other field kept as it came.
 */
function reportedUsageShape(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  const breakdowns: Record<string, Record<string, z.ZodType>> = {};
  for (const counter of Object.keys(USAGE_COUNTERS) as UsageCounter[]) {
    const [field, inner] = USAGE_COUNTERS[counter];
    const value = REQUIRED_USAGE_COUNTERS.includes(counter) ? count() : count().nullable().optional();
    if (inner === undefined) shape[field] = value;
    else breakdowns[field] = { ...breakdowns[field], [inner]: value };
  }
  for (const [field, counters] of Object.entries(breakdowns))
    shape[field] = openMapping(counters).nullable().optional();
  shape.service_tier = text().nullable().optional();
  return shape;
}

/** A response's usage: the API's report, as it came; or, in older files, legate's four counters. */
export const recordedUsage = flow(
  free(
    either(
      [typedAs<ApiUsage>(openMapping(reportedUsageShape())), legacyUsage],
      'a usage report with input_tokens and output_tokens',
    ).meta({
      description:
        "The response's usage as the API reported it (older files: input, output, cacheCreation, cacheRead).",
    }),
  ),
);

/** The run's usage totals, summed over every model call (sub-agents' included). Absent counters are 0. */
export const recordedTotals = flow(
  mapping({
    input: count(),
    output: count(),
    cacheCreation: count().optional(),
    cacheRead: count().optional(),
    cacheCreation5m: count().optional(),
    cacheCreation1h: count().optional(),
    webSearchRequests: count().optional(),
    webFetchRequests: count().optional(),
    thinking: count().optional(),
  }),
);

/**
 * Which of the run's summed counters each field of the summary's usage holds. A counter other
 * than `input` and `output` is written when it is not 0.
 */
export const TOTALS_COUNTERS = {
  input: 'inputTokens',
  output: 'outputTokens',
  cacheCreation: 'cacheCreationInputTokens',
  cacheRead: 'cacheReadInputTokens',
  cacheCreation5m: 'cacheCreation5mInputTokens',
  cacheCreation1h: 'cacheCreation1hInputTokens',
  webSearchRequests: 'webSearchRequests',
  webFetchRequests: 'webFetchRequests',
  thinking: 'thinkingTokens',
} as const satisfies Record<keyof z.output<typeof recordedTotals>, UsageCounter>;
