import { quoteValue } from '../json/describeValue.js';

const WINDOW = 60;

/**
 * Two values side by side, quoted; for two strings, a window around where they first differ, so
 * a change at the end of a long text is shown rather than cut off.
 */
export function contrast(expected: unknown, actual: unknown): [string, string] {
  if (typeof expected !== 'string' || typeof actual !== 'string') return [showValue(expected), showValue(actual)];
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const start = Math.max(0, at - 20);
  const cut = (text: string) => {
    const window = JSON.stringify(text.slice(start, start + WINDOW));
    return `${start > 0 ? '…' : ''}${window}${start + WINDOW < text.length ? '…' : ''}`;
  };
  return [cut(expected), cut(actual)];
}

/** A value as a message quotes it; `(nothing)` for a value that is not there. */
export function showValue(value: unknown): string {
  return value === undefined ? '(nothing)' : quoteValue(value);
}
