/**
 * Characters that change what a reader sees without showing themselves: bidi embeddings, overrides, isolates and
 * marks (they reorder the text around them: `\u202E` shows `1234` as `4321`), zero-width characters and the word
 * joiner (they split or join words unseen), the byte order mark, C0 and C1 controls but the tab and line break,
 * and lone surrogate halves (a character cut in two).
 */
const INVISIBLE = /(?![\t\n])\p{Cc}|[\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|\p{Cs}/gu;

/**
 * The text for a person to read, each {@link INVISIBLE} character written as its escape (`\u202E`), so that what is
 * shown is what is there. Other characters, a backslash included, are kept as they are.
 */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
