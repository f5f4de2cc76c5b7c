import { jsonText } from './jsonText.js';
import { jsonTypeOf } from './jsonValue.js';

/** How many characters of a value's JSON text a message quotes before cutting it. */
const QUOTED_VALUE_LIMIT = 40;

/**
 * Describes a value for a message a model will read: its JSON type, then the value itself
 * JSON-escaped and cut to {@link QUOTED_VALUE_LIMIT} characters, e.g. `the string "one"`,
 * `the number 3`, `the array [1,2,3]`. Never throws, whatever it is given.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  return `the ${jsonTypeOf(value)} ${quoteValue(value)}`;
}

/** The value as escaped JSON text, cut to the quoting limit with an ellipsis. */
export function quoteValue(value: unknown): string {
  return cutToLimit(toJsonText(value), QUOTED_VALUE_LIMIT);
}

function toJsonText(value: unknown): string {
  try {
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol' || typeof value === 'function') return String(value);
    // JSON text escapes quotes, control characters and lone surrogates. Only the start is
    // quoted, so the writing stops soon after it; it does not recurse, so any depth is fine.
    const text = jsonText(value, { stopAfter: QUOTED_VALUE_LIMIT * 4, bigintAsString: true });
    return text === undefined ? String(value) : text;
  } catch {
    // A cyclic structure or a throwing toJSON: describe it without looking inside.
    return Array.isArray(value) ? '[…]' : '{…}';
  }
}

/** Cuts by code points, so an emoji or an escaped character is never split in two. */
function cutToLimit(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const points = Array.from(text);
  if (points.length <= limit) return text;
  return `${points.slice(0, limit).join('')}…`;
}
