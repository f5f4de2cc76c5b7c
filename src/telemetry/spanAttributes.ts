import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';
import { counterIn } from '../messages/usageCounters.js';
import type { ApiUsage } from '../messages/types.js';
import { ATTRIBUTES, type AttributeKey } from './attributeNames.js';

/** Attributes by their keys in the table: the one way a span builder names an attribute. */
export type AttributesOf = Partial<Record<AttributeKey, AttributeValue | undefined>>;

/** The named attributes as OpenTelemetry takes them; undefined ones are left out. */
export function attributes(values: AttributesOf): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) out[ATTRIBUTES[key as AttributeKey].name] = value;
  return out;
}

export function setAttributes(span: Span, values: AttributesOf): void {
  span.setAttributes(attributes(values));
}

/** Token counts by the conventions' names: input includes cache reads and writes, as they ask. */
interface TokenCounts {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  reasoning: number;
}

export function tokensOfResponse(usage: ApiUsage): TokenCounts {
  return {
    input: counterIn(usage, 'inputTokens'),
    output: counterIn(usage, 'outputTokens'),
    cacheCreation: counterIn(usage, 'cacheCreationInputTokens'),
    cacheRead: counterIn(usage, 'cacheReadInputTokens'),
    reasoning: counterIn(usage, 'thinkingTokens'),
  };
}

/** The usage attributes: cache and reasoning counts only where there are any. */
export function usageAttributes(tokens: TokenCounts): AttributesOf {
  const some = (n: number) => (n > 0 ? n : undefined);
  return {
    inputTokens: tokens.input + tokens.cacheCreation + tokens.cacheRead,
    outputTokens: tokens.output,
    cacheCreationTokens: some(tokens.cacheCreation),
    cacheReadTokens: some(tokens.cacheRead),
    reasoningTokens: some(tokens.reasoning),
  };
}
