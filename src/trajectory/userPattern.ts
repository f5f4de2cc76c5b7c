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

/** The first match of a compiled pattern in a text, whatever the pattern's `lastIndex` was. */
export function firstMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  const match = pattern.exec(text);
  pattern.lastIndex = 0;
  return match;
}
