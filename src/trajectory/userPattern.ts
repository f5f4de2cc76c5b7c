import { UsageError } from '../errors/UsageError.js';

/**
 * A pattern a user declared (a redaction or a secret), compiled to find every match wherever
 * it is: `g` and `y` are dropped from the user's flags (a sticky pattern would only look at
 * position 0, a shared global one would resume at a stale `lastIndex`) and a fresh `g` added.
 * The other flags (`i`, `m`, `s`, `u`, `v`) keep their meaning. A string is a pattern's source.
 */
export function compileUserPattern(source: RegExp | string): RegExp {
  if (typeof source === 'string') return new RegExp(source, 'g');
  if (source instanceof RegExp) return new RegExp(source.source, `${source.flags.replace(/[gyd]/g, '')}g`);
  throw new UsageError(
    'invalid_pattern',
    `A declared pattern must be a RegExp or a string (a pattern's source), but it was ` +
      `${source === null ? 'null' : typeof source}.`,
  );
}

/** Where a pattern matched: the index in the text and the match's length. */
interface PatternMatch {
  index: number;
  length: number;
}

/**
 * V8 keeps a backtrack entry for each repetition of a quantified group or open-ended character class,
 * and throws a `RangeError` ("Maximum call stack size exceeded") past a few MiB of one run of them:
 * `/tok_[a-z]{8,}/` on a base64 image of 8 MiB. Where a pattern overflows on a text, it is matched in
 * windows of {@link WINDOW} characters, each starting half a window after the last, so a match no longer
 * than half a window is seen whole; a longer one is found from its start, cut at its window's end.
 * Anchors, lookarounds and `\b` see a window's edges as the text's: they may find more there, never less
 * within a match's half window. A window the pattern still overflows on is halved, down to {@link SMALLEST}.
 */
const WINDOW = 2 ** 20;
const SMALLEST = 2 ** 12;

/** The first match of a compiled (global) pattern in a text at or after `from`, whatever its `lastIndex` was. */
export function firstMatch(pattern: RegExp, text: string, from = 0): PatternMatch | undefined {
  try {
    return execAt(pattern, text, from);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return firstMatchInWindows(pattern, text, from, WINDOW);
}

/** {@link firstMatch} window by window, from `from` (the same answer for any match no longer than half a window). */
export function firstMatchInWindows(
  pattern: RegExp,
  text: string,
  from: number,
  window: number,
): PatternMatch | undefined {
  for (let start = from; ; start += window / 2) {
    let found: PatternMatch | undefined;
    try {
      found = execAt(pattern, text.slice(start, start + window), 0);
    } catch (error) {
      if (!(error instanceof RangeError) || window <= SMALLEST) throw error;
      found = firstMatchInWindows(pattern, text.slice(0, start + window), start, window / 2);
      if (found !== undefined) return found;
      if (start + window >= text.length) return undefined;
      continue;
    }
    if (found !== undefined) return { index: start + found.index, length: found.length };
    if (start + window >= text.length) return undefined;
  }
}

function execAt(pattern: RegExp, text: string, from: number): PatternMatch | undefined {
  pattern.lastIndex = from;
  try {
    const match = pattern.exec(text);
    return match === null ? undefined : { index: match.index, length: match[0].length };
  } finally {
    pattern.lastIndex = 0;
  }
}

/**
 * Every match of a compiled (global) pattern in a text replaced by `replacement`, taken literally (no
 * `$&` or `$1`), bounded in stack as {@link firstMatch} is.
 */
export function replaceMatches(pattern: RegExp, text: string, replacement: string): string {
  try {
    return text.replace(pattern, () => replacement);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  let replaced = '';
  let from = 0;
  for (;;) {
    const match = firstMatch(pattern, text, from);
    if (match === undefined) return replaced + text.slice(from);
    replaced += text.slice(from, match.index) + replacement;
    // An empty match replaces nothing more: the next search starts one character on, as String.replace does.
    if (match.length === 0) {
      if (match.index >= text.length) return replaced;
      replaced += text[match.index];
    }
    from = match.index + Math.max(match.length, 1);
  }
}
