import { jsonText } from '../json/jsonText.js';

/** A JSON value as indented text; a value JSON cannot write (too deep, a bigint) is written flat or in words. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '(nothing)';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return jsonText(value, { bigintAsString: true }) ?? String(value);
  }
}
