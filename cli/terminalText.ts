/**
 * What a terminal acts on or what exists to mislead a reader: C0 controls (line breaks and ESC among them), DEL,
 * C1 controls, bidi embeddings, overrides and isolates, and zero-width characters.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what it finds.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Text that came from a file (a name, an agent, a message quoting the file), made safe to print: every character
 * of {@link UNSAFE} shown visibly (`\x1b`, `\n`, `\u202e`), everything else as it is. A file cannot erase or
 * recolour a line legate prints, nor reorder what a reader sees.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** {@link terminalText} for a message of several lines: its line breaks are kept, every other character escaped. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
