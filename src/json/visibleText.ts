/**
 * Characters that change what a reader sees without showing themselves: C0 and C1 controls (a terminal acts on ESC,
 * a carriage return rewrites a line), DEL, bidi embeddings, overrides, isolates and marks (they reorder the text
 * around them: `\u202E` shows `1234` as `4321`), zero-width characters and the word joiner (they split or join words
 * unseen), the byte order mark, and lone surrogate halves (a character cut in two).
 */
const INVISIBLE = /\p{Cc}|[\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|\p{Cs}/gu;

/**
 * Text that came from outside (a file, a tool's result) for a person to read: each {@link INVISIBLE} character is
 * written as its escape (`\n`, `\x1b`, `\u202e`), so that what is shown is what is there, and a text can neither
 * erase or recolour a line nor reorder what a reader sees. `keep` lists the characters left as they are (a line
 * break, where the text is shown as lines). Everything else, a backslash included, is kept.
 */
export function visibleText(text: string, keep = ''): string {
  return text.replace(INVISIBLE, (char) => (keep.includes(char) ? char : escapeOf(char)));
}

function escapeOf(char: string): string {
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  if (char === '\t') return '\\t';
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
