import { visibleText } from '../src/json/visibleText.js';

/**
 * Text that came from a file (a name, an agent, a message quoting the file), made safe to print: every control,
 * bidi and zero-width character shown by its escape (`\x1b`, `\n`, `\u202e`; src/json/visibleText.ts), everything
 * else as it is. A file cannot erase or recolour a line legate prints, nor reorder what a reader sees.
 */
export function terminalText(text: string): string {
  return visibleText(text);
}

/** {@link terminalText} for a message of several lines: its line breaks are kept, every other character escaped. */
export function terminalLines(text: string): string {
  return visibleText(text, '\n');
}
