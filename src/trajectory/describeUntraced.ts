import type { RecordedResult } from './types.js';

/**
 * A provenance refusal's facts in a few words: the argument whose value was traced to no trusted
 * text, the value whole, and where it was found instead, as `untraced to "99-1234-5678" · found
 * only in fetch_page`. `legate show` and the HTML viewer both say it so.
 */
export function describeUntraced({ argument, value, foundIn }: NonNullable<RecordedResult['untraced']>): string {
  const where = foundIn.length === 0 ? 'found in no trusted text' : `found only in ${foundIn.join(', ')}`;
  return `untraced ${argument} ${JSON.stringify(value)} · ${where}`;
}
