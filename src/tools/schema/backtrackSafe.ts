/**
 * Whether JavaScript's backtracking engine runs a pattern (`u` flag) in time linear in the
 * text, so the binder may use it instead of the slower linear-time engine. Conservative: it
 * says yes only for a shape it can prove, and no for everything else (which still runs in
 * linear time, on RE2JS).
 *
 * The shape: `^`, then a sequence of single-character atoms (a literal, an escape such as `\d`
 * or `\.`, `.`, or a class `[...]`), each with an optional greedy quantifier, then an optional
 * `$`. No groups, no alternation, no lazy quantifiers, no backreferences or lookarounds.
 *
 * The proof: where an atom repeats a variable number of times, no character it matches can
 * start what follows it (the atoms up to the next one that must occur). So once it has taken
 * all it can, giving a character back can never let the rest match: each give-back fails at
 * the first atom after it, and the engine tries one way through the text, plus a constant
 * number of failed steps per character. The `^` anchor means only one start position is tried.
 */
export function isBacktrackSafe(pattern: string): boolean {
  const items = parseSequence(pattern);
  if (items === undefined) return false;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.min === item.max) continue;
    for (let j = i + 1; j < items.length; j++) {
      if (overlaps(item.set, items[j]!.set)) return false;
      if (items[j]!.min > 0) break;
    }
  }
  return true;
}

/** A set of code points, as sorted, disjoint, inclusive ranges. */
type CharSet = [number, number][];

interface Item {
  set: CharSet;
  min: number;
  max: number;
}

const MAX = 0x10ffff;
const MAX_REPEAT = 1000;
const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** JavaScript's `\s`: WhiteSpace and LineTerminator. */
const SPACE: CharSet = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const DOT: CharSet = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
const CLASS_ESCAPES: Record<string, CharSet> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};
const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, f: 0x0c };
/** Characters that `\` makes literal in `u` mode (SyntaxCharacter and `/`, and `-` in a class). */
const SYNTAX = '^$\\.*+?()[]{}|/';

/** The pattern as `^` + items + optional `$`, or undefined when it has any other shape. */
function parseSequence(pattern: string): Item[] | undefined {
  if (!pattern.startsWith('^')) return undefined;
  const items: Item[] = [];
  let i = 1;
  while (i < pattern.length) {
    if (pattern[i] === '$' && i === pattern.length - 1) return items;
    const atom = parseAtom(pattern, i);
    if (atom === undefined) return undefined;
    const quantifier = parseQuantifier(pattern, atom.next);
    if (quantifier === undefined) return undefined;
    items.push({ set: atom.set, min: quantifier.min, max: quantifier.max });
    i = quantifier.next;
  }
  return items;
}

function parseAtom(pattern: string, at: number): { set: CharSet; next: number } | undefined {
  const c = pattern[at]!;
  if (c === '.') return { set: DOT, next: at + 1 };
  if (c === '[') return parseClass(pattern, at + 1);
  if (c === '\\') {
    const escaped = parseEscape(pattern, at + 1, false);
    return escaped === undefined ? undefined : { set: escaped.set, next: escaped.next };
  }
  if ('^$*+?(){}|]'.includes(c)) return undefined;
  const point = pattern.codePointAt(at)!;
  return { set: [[point, point]], next: at + (point > 0xffff ? 2 : 1) };
}

/** An escape after its backslash: a class escape, a control escape, or an escaped syntax character. */
function parseEscape(pattern: string, at: number, inClass: boolean): { set: CharSet; next: number } | undefined {
  const c = pattern[at];
  if (c === undefined) return undefined;
  if (Object.hasOwn(CLASS_ESCAPES, c)) return { set: CLASS_ESCAPES[c]!, next: at + 1 };
  if (Object.hasOwn(CONTROL_ESCAPES, c)) return { set: single(CONTROL_ESCAPES[c]!), next: at + 1 };
  if (SYNTAX.includes(c) || (inClass && c === '-')) return { set: single(c.charCodeAt(0)), next: at + 1 };
  return undefined; // \b, \B, \1, \k, \p, \u, \x, \c, \0: not in the proven shape
}

function parseClass(pattern: string, at: number): { set: CharSet; next: number } | undefined {
  let i = at;
  const negated = pattern[i] === '^';
  if (negated) i++;
  const ranges: CharSet = [];
  while (i < pattern.length && pattern[i] !== ']') {
    const low = classMember(pattern, i);
    if (low === undefined) return undefined;
    i = low.next;
    if (pattern[i] === '-' && pattern[i + 1] !== ']' && i + 1 < pattern.length) {
      const high = classMember(pattern, i + 1);
      if (high === undefined || low.point === undefined || high.point === undefined || high.point < low.point)
        return undefined;
      ranges.push([low.point, high.point]);
      i = high.next;
      continue;
    }
    ranges.push(...low.set);
  }
  if (pattern[i] !== ']') return undefined;
  const set = normalize(ranges);
  return { set: negated ? complement(set) : set, next: i + 1 };
}

/** One member of a class: a character (with its code point, so it can bound a range) or a class escape. */
function classMember(
  pattern: string,
  at: number,
): { set: CharSet; point: number | undefined; next: number } | undefined {
  const c = pattern[at];
  if (c === undefined || c === '[') return undefined;
  if (c === '\\') {
    const escaped = parseEscape(pattern, at + 1, true);
    if (escaped === undefined) return undefined;
    const [range] = escaped.set;
    const point = escaped.set.length === 1 && range![0] === range![1] ? range![0] : undefined;
    return { set: escaped.set, point, next: escaped.next };
  }
  const point = pattern.codePointAt(at)!;
  return { set: single(point), point, next: at + (point > 0xffff ? 2 : 1) };
}

/** A greedy quantifier (or none); undefined for a lazy one or a malformed count. */
function parseQuantifier(pattern: string, at: number): { min: number; max: number; next: number } | undefined {
  const c = pattern[at];
  let result: { min: number; max: number; next: number };
  if (c === '?') result = { min: 0, max: 1, next: at + 1 };
  else if (c === '*') result = { min: 0, max: Infinity, next: at + 1 };
  else if (c === '+') result = { min: 1, max: Infinity, next: at + 1 };
  else if (c === '{') {
    const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(pattern.slice(at));
    if (match === null) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    // Counts past RE2's 1000 are left to the linear engine, which refuses them: one rule for
    // every pattern, whichever engine runs it.
    if (max < min || min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) return undefined;
    result = { min, max, next: at + match[0].length };
  } else return { min: 1, max: 1, next: at };
  return pattern[result.next] === '?' ? undefined : result;
}

function single(point: number): CharSet {
  return [[point, point]];
}

function normalize(ranges: CharSet): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: CharSet = [];
  for (const [low, high] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else out.push([low, high]);
  }
  return out;
}

function complement(set: CharSet): CharSet {
  const out: CharSet = [];
  let next = 0;
  for (const [low, high] of normalize(set)) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

function overlaps(a: CharSet, b: CharSet): boolean {
  return a.some(([low, high]) => b.some(([l, h]) => low <= h && l <= high));
}
