import { createRequire } from 'node:module';
import type { RE2JS as Re2js } from 're2js';
import { isBacktrackSafe } from './backtrackSafe.js';

/**
 * A schema `pattern`, checked in time linear in the length of the text: written in JavaScript
 * regular-expression syntax (the `u` flag, as JSON Schema patterns are ECMA-262), translated
 * to RE2's syntax with JavaScript's meaning kept, and run by RE2JS, which never backtracks.
 * `^(a+)+$` on a million `a`s and a `!` answers as fast as `^a+$`.
 */
interface LinearPattern {
  /** Whether the pattern matches somewhere in the text, as `RegExp.prototype.test` answers. */
  test(text: string): boolean;
}

/** A pattern JavaScript accepts but a linear-time engine cannot run; `problem` says which construct and what to do. */
export class UnsupportedPattern {
  constructor(readonly problem: string) {}
}

let re2js: typeof Re2js | undefined;

/**
 * RE2JS, loaded the first time a pattern needs it (most schemas' patterns run on V8's own engine, and most
 * programs that import legate check none) and kept. Patterns are compiled synchronously, so it is required: re2js
 * ships CommonJS beside its ES module.
 */
function linearEngine(): typeof Re2js {
  re2js ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return re2js;
}

/** JavaScript's `\s`: WhiteSpace and LineTerminator (ECMA-262), as RE2 class items. */
const JS_SPACE =
  '\\t\\n\\x{B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** Everything but JavaScript's `\s`, as RE2 class items, so `[\Sx]` can be written inside a class. */
const JS_NOT_SPACE =
  '\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}' +
  '\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}';
/** JavaScript's `.` without the `s` flag: any code point but a line terminator. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANYTHING = '\\x{0}-\\x{10FFFF}';

/**
 * Compiles a pattern that already compiles as `new RegExp(pattern, 'u')`. Lookarounds and
 * backreferences (which no linear-time engine runs), Unicode properties RE2 does not know, and
 * repeat counts above 1000 come back as {@link UnsupportedPattern}.
 */
export function compileLinearPattern(pattern: string): LinearPattern | UnsupportedPattern {
  // The simple anchored patterns most schemas use run in linear time on V8's own engine, which
  // is many times faster than RE2JS: see isBacktrackSafe for the proof of the shape it accepts.
  // The expression itself is returned, called with no wrapper: without the `g` or `y` flag, its `test` keeps no state.
  if (isBacktrackSafe(pattern)) return new RegExp(pattern, 'u');
  const translated = translate(pattern);
  if (translated instanceof UnsupportedPattern) return translated;
  try {
    const compiled = linearEngine().compile(translated);
    return { test: (text) => compiled.matcher(text).find() };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return new UnsupportedPattern(
      `the linear-time engine that runs patterns cannot take it (${reason}); repeat counts may be at most 1000`,
    );
  }
}

/** JavaScript (`u` flag) syntax to RE2 syntax with the same meaning, or the construct RE2 cannot run. */
function translate(pattern: string): string | UnsupportedPattern {
  const points = Array.from(pattern);
  let out = '';
  let inClass = false;
  let i = 0;
  while (i < points.length) {
    const c = points[i]!;
    if (c === '\\') {
      const translated = translateEscape(points, i, inClass);
      if (translated instanceof UnsupportedPattern) return translated;
      out += translated.text;
      i = translated.next;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c; // RE2 reads `[:` inside a class as a POSIX class; JavaScript reads a plain `[`
      i++;
      continue;
    }
    if (c === '[') {
      // `[]` matches nothing and `[^]` anything in JavaScript; RE2 reads a leading `]` as a member.
      if (points[i + 1] === ']') {
        out += `[^${ANYTHING}]`;
        i += 2;
      } else if (points[i + 1] === '^' && points[i + 2] === ']') {
        out += `[${ANYTHING}]`;
        i += 3;
      } else {
        inClass = true;
        out += points[i + 1] === '^' ? '[^' : '[';
        i += points[i + 1] === '^' ? 2 : 1;
      }
      continue;
    }
    if (c === '.') {
      out += JS_DOT;
      i++;
      continue;
    }
    if (c === '(' && points[i + 1] === '?') {
      const kind = points.slice(i + 2, i + 4).join('');
      if (kind.startsWith('=') || kind.startsWith('!') || kind === '<=' || kind === '<!') {
        return new UnsupportedPattern(
          `a lookaround ('(?${kind.startsWith('<') ? kind : kind[0]}') cannot run in linear time; match the ` +
            'text itself, or check the condition in the tool',
        );
      }
      if (kind.startsWith('<')) {
        // A named group: nothing reads the groups, so it becomes a plain group.
        const close = points.indexOf('>', i);
        out += '(?:';
        i = close + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

interface Escape {
  text: string;
  next: number;
}

function translateEscape(points: string[], at: number, inClass: boolean): Escape | UnsupportedPattern {
  const c = points[at + 1]!;
  const next = at + 2;
  switch (c) {
    case 's':
      return { text: inClass ? JS_SPACE : `[${JS_SPACE}]`, next };
    case 'S':
      return { text: inClass ? JS_NOT_SPACE : `[^${JS_SPACE}]`, next };
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'v':
    case 'f':
    case 'r':
      return { text: `\\${c}`, next };
    case 'b':
      return { text: inClass ? '\\x{8}' : '\\b', next };
    case 'B':
      return { text: '\\B', next };
    case '0':
      return { text: '\\x{0}', next };
    case 'c':
      return { text: codePoint(points[at + 2]!.codePointAt(0)! % 32), next: at + 3 };
    case 'x':
      return { text: codePoint(parseInt(points.slice(at + 2, at + 4).join(''), 16)), next: at + 4 };
    case 'u':
      return unicodeEscape(points, at);
    case 'p':
    case 'P':
      return propertyEscape(points, at, c);
    case 'k':
      return new UnsupportedPattern(
        `a backreference ('\\k<...>') cannot run in linear time; match the text itself, or check the ` +
          'repetition in the tool',
      );
    default:
      if (c >= '1' && c <= '9') {
        return new UnsupportedPattern(
          `a backreference ('\\${c}') cannot run in linear time; match the text itself, or check the ` +
            'repetition in the tool',
        );
      }
      // An escaped syntax character (`\.`, `\/`, `\-`, ...): the character itself, escaped.
      return { text: /[A-Za-z0-9]/.test(c) ? c : `\\${c}`, next };
  }
}

function codePoint(value: number): string {
  return `\\x{${value.toString(16).toUpperCase()}}`;
}

/** `\uHHHH`, a pair of them forming one code point, or `\u{H...}`. */
function unicodeEscape(points: string[], at: number): Escape {
  if (points[at + 2] === '{') {
    const close = points.indexOf('}', at);
    return { text: codePoint(parseInt(points.slice(at + 3, close).join(''), 16)), next: close + 1 };
  }
  const unit = parseInt(points.slice(at + 2, at + 6).join(''), 16);
  const after = points.slice(at + 6, at + 12).join('');
  if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(after)) {
    const low = parseInt(after.slice(2), 16);
    return { text: codePoint(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), next: at + 12 };
  }
  return { text: codePoint(unit), next: at + 6 };
}

/** `\p{...}`: general categories and scripts RE2 knows, under the names JavaScript allows. */
function propertyEscape(points: string[], at: number, letter: 'p' | 'P'): Escape | UnsupportedPattern {
  const close = points.indexOf('}', at);
  const body = points.slice(at + 3, close).join('');
  const [key, value] = body.includes('=') ? body.split('=') : [undefined, body];
  const name =
    key === undefined
      ? (CATEGORY_ALIASES[value!] ?? value!)
      : key === 'General_Category' || key === 'gc'
        ? (CATEGORY_ALIASES[value!] ?? value!)
        : key === 'Script' || key === 'sc'
          ? value!
          : undefined;
  const text = `\\${letter}{${name}}`;
  try {
    if (name === undefined) throw new Error(body);
    linearEngine().compile(text);
  } catch {
    return new UnsupportedPattern(
      `the Unicode property '\\${letter}{${body}}' is not one the linear-time engine knows; use a general ` +
        `category (\\p{L}, \\p{Lu}, \\p{Nd}, ...) or a script (\\p{Script=Greek}), or list the characters`,
    );
  }
  return { text, next: close + 1 };
}

/** JavaScript's long names for general categories, as RE2's short ones. */
const CATEGORY_ALIASES: Record<string, string> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
};
