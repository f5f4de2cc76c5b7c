/**
 * The built-in credential shapes: each a pattern (public, and what a finding names) and a
 * finder that gives the same first match's index with a stack bounded whatever the input. V8's
 * regular expressions keep a backtrack entry per character of an open-ended quantifier, so
 * `[A-Za-z0-9]{4,}` on a run of 8 MiB overflows the stack; each finder's expressions match at most a
 * fixed number of characters, and the open-ended parts are walked by a loop.
 */
type BuiltInKind = 'api_key' | 'bearer_token';

const TOKEN = '[A-Za-z0-9._~+/=-]';
const TOKEN_CHAR = new RegExp(TOKEN);
const WHITESPACE = /\s/;
const DIGIT = /[0-9]/;

interface BuiltInSecret {
  kind: BuiltInKind;
  pattern: RegExp;
  /** The index where `pattern` first matches in a text, found without open-ended matching. */
  find(text: string): number | undefined;
}

/** A finder for a pattern `prefix{n,}`: the first match of `prefix{n}` starts where the open-ended one does. */
function bounded(source: RegExp): (text: string) => number | undefined {
  const pattern = new RegExp(source.source.replace(/\{(\d+),\}$/, '{$1}'), `${source.flags}g`);
  return (text) => {
    pattern.lastIndex = 0;
    const index = pattern.exec(text)?.index;
    pattern.lastIndex = 0;
    return index;
  };
}

const API_KEY = /sk-ant-[A-Za-z0-9_-]{4,}/i;
const BEARER = new RegExp(`Bearer ${TOKEN}{8,}`);
const LOOSE_BEARER = new RegExp(`bearer(?:\\s|%20|\\+)+(?=[A-Za-z._~+/=-]*\\d)${TOKEN}{8,}`, 'i');

export const BUILT_IN_SECRETS: readonly BuiltInSecret[] = [
  { kind: 'api_key', pattern: API_KEY, find: bounded(API_KEY) },
  // `Bearer ` exactly, then any token of 8 or more characters.
  { kind: 'bearer_token', pattern: BEARER, find: bounded(BEARER) },
  // Any case, any whitespace (tab, line break, several), `%20` or `+` between: a token that holds a digit, so prose
  // ("bearer instruments") is not refused.
  { kind: 'bearer_token', pattern: LOOSE_BEARER, find: findLooseBearer },
];

const BEARER_WORD = /bearer/gi;

/** Where `LOOSE_BEARER` first matches: each `bearer`, then its separators and token walked one character at a time. */
function findLooseBearer(text: string): number | undefined {
  // The end of a run of token characters already walked that holds no digit from `barrenFrom` on: a later token
  // starting inside it fails too, so a text of many `bearer+` in one run is walked once.
  let barrenFrom = -1;
  let barrenTo = -1;
  BEARER_WORD.lastIndex = 0;
  for (let word = BEARER_WORD.exec(text); word !== null; word = BEARER_WORD.exec(text)) {
    const after = word.index + word[0].length;
    // The separators, greedily; `+` is a token character too, so the token may take back the trailing ones.
    let end = after;
    let plusesFrom = after;
    while (end < text.length) {
      if (text[end] === '+') end++;
      else if (WHITESPACE.test(text[end]!)) plusesFrom = ++end;
      else if (text.startsWith('%20', end)) plusesFrom = end += 3;
      else break;
    }
    if (end === after) continue;
    // The token starts after at least one separator; the earliest start makes the longest token.
    const start = plusesFrom === after ? after + 1 : plusesFrom;
    if (end >= barrenFrom && end < barrenTo) continue;
    let at = end;
    let digit = false;
    while (at < text.length && TOKEN_CHAR.test(text[at]!) && !(digit && at - start >= 8)) {
      if (DIGIT.test(text[at]!)) digit = true;
      at++;
    }
    if (digit && at - start >= 8) {
      BEARER_WORD.lastIndex = 0;
      return word.index;
    }
    if (!digit) {
      barrenFrom = end;
      barrenTo = at;
    }
  }
  return undefined;
}
