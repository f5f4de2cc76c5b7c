import type { GuardState } from './guardState.js';
import { taintSourcesOf } from './guardState.js';
import type { Provenance } from './provenance/provenance.js';
import type { Untraced } from './provenance/traceArguments.js';
import { visibleText } from '../json/visibleText.js';

/** Characters of each source's outside-authored text a review shows. */
export const EXCERPT_LENGTH = 240;

/**
 * What a person is shown to decide a call held because the run is tainted: every source of
 * untrusted content in the conversation, in the order it entered, each with the start of the
 * text outsiders wrote in it; and, when provenance decided, the sensitive argument it could not
 * trace (its value, and which tools' outside text holds it).
 */
export interface TaintReview {
  sources: { tool: string; id: string; excerpt: string }[];
  untraced?: Untraced;
}

/**
 * The review of a held call. An excerpt is empty where the conversation no longer holds the
 * source's result (a state handed on with a history trimmed of it).
 */
export function taintReview(
  state: GuardState,
  outside: Provenance['outside'],
  untraced: Untraced | undefined,
): TaintReview {
  const sources = taintSourcesOf(state).map(({ source, id }) => {
    const texts = outside.get(id)?.texts ?? [];
    const around = untraced?.foundIn.includes(source) ? String(untraced.value) : undefined;
    return { tool: source, id, excerpt: excerptOf(texts, around) };
  });
  return untraced === undefined
    ? { sources }
    : { sources, untraced: { argument: untraced.argument, value: untraced.value, foundIn: [...untraced.foundIn] } };
}

/**
 * At most {@link EXCERPT_LENGTH} characters of a source's outside-authored texts, whitespace collapsed, chosen for
 * the person deciding: around the untraced value where this source holds it as written; else the texts whole while
 * they fit, longest first (a planted instruction takes words; a payment's subject does not), in their order; else the
 * start and the end of the longest (an instruction is often planted at the end of a document). Characters that would
 * mislead the reader unseen (bidi controls, zero-width and control characters) are shown escaped, see
 * {@link visibleText}; each counts as one of the limit's characters.
 */
export function excerptOf(texts: readonly string[], around?: string): string {
  return visibleText(chosenExcerpt(texts, around), '\t\n');
}

function chosenExcerpt(texts: readonly string[], around?: string): string {
  // A zero-width no-break space is whitespace to the pattern, but the reader sees nothing: it is escaped, not a space.
  const clean = texts.map((text) => text.replace(/[^\S\uFEFF]+/g, ' ').trim()).filter((text) => text !== '');
  if (around !== undefined && around.trim() !== '') {
    const needle = around.trim();
    for (const text of clean) {
      const found = indexIgnoringCase(text, needle);
      if (found !== undefined && text.length > EXCERPT_LENGTH) return windowAround(text, found.start, found.length);
      if (found !== undefined) return text;
    }
  }
  const joined = clean.join('\n');
  if (joined.length <= EXCERPT_LENGTH) return joined;
  const byLength = clean.map((text, i) => ({ text, i })).sort((a, b) => b.text.length - a.text.length);
  const chosen: { text: string; i: number }[] = [];
  let used = 2; // the ' …' that says texts were left out
  for (const entry of byLength) {
    if (used + entry.text.length + 1 > EXCERPT_LENGTH) continue;
    chosen.push(entry);
    used += entry.text.length + 1;
  }
  if (chosen.length === 0) {
    const longest = byLength[0]!.text;
    const head = Math.ceil((EXCERPT_LENGTH - 1) * 0.6);
    return `${longest.slice(0, head)}…${longest.slice(longest.length - (EXCERPT_LENGTH - 1 - head))}`;
  }
  return `${chosen
    .sort((a, b) => a.i - b.i)
    .map((entry) => entry.text)
    .join('\n')} …`;
}

/** The text's {@link EXCERPT_LENGTH} characters (marks included) with the match in the middle. */
function windowAround(text: string, at: number, length: number): string {
  const room = EXCERPT_LENGTH - 2;
  const start = Math.max(0, Math.min(at - Math.floor((room - length) / 2), text.length - room));
  const end = Math.min(text.length, start + room);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/**
 * Where the needle first occurs in the text, case ignored, as indices into the text itself. The search is in the
 * lowercased text, where a character may be longer (`İ` is `i̇`, two units) and so move every index after it: the
 * match is mapped back by the length of the text's prefixes once lowercased, which grows with the prefix. The needle
 * is not blank (a blank value is looked for nowhere, see {@link chosenExcerpt}).
 */
function indexIgnoringCase(text: string, needle: string): { start: number; length: number } | undefined {
  const lowered = lowerCase(text);
  const sought = lowerCase(needle);
  const at = lowered.indexOf(sought);
  if (at < 0) return undefined;
  // The match ends after the characters, from its start, whose lowercase covers its units (a character's lowercase
  // is as long alone as in context).
  const start = startOfUnit(text, at);
  let covered = lowerCase(text.slice(0, start)).length;
  let end = start;
  while (covered < at + sought.length) {
    const point = String.fromCodePoint(text.codePointAt(end)!);
    covered += point.toLowerCase().length;
    end += point.length;
  }
  return { start, length: end - start };
}

/** Lowercase, the final sigma as any other (`ΟΔΟΣ` is found in `ΟΔΟΣΑ`); no character lowercases shorter. */
function lowerCase(text: string): string {
  return text.toLowerCase().replaceAll('ς', 'σ');
}

/**
 * Where, in the text, the character starts whose lowercase holds the lowercased text's unit `at`: the longest prefix
 * lowercased to at most `at` units, found by bisection (a longer prefix is never shorter lowercased).
 */
function startOfUnit(text: string, at: number): number {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lowerCase(text.slice(0, middle)).length <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}
