/**
 * The runs the secret scan decodes, found as before issue 31, by a regular expression: a reference for short inputs
 * (on a run of 8 MiB it overflows the stack). Kept only for the test that compares it with the loop that replaced it.
 */
const RUN_PATTERNS = { base64: /[A-Za-z0-9+/_-]{6,}/g, hex: /[0-9A-Fa-f]{6,}/g } as const;

/** Where the regular expression finds the runs of an encoding's alphabet, as [start, end) pairs. */
export function regexEncodedRuns(text: string, encoding: 'base64' | 'hex'): [number, number][] {
  return [...text.matchAll(RUN_PATTERNS[encoding])].map((match) => [match.index, match.index + match[0].length]);
}
