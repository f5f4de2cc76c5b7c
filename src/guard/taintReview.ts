import type { GuardState } from './guardState.js';
import { taintSourcesOf } from './guardState.js';
import type { Provenance } from './provenance/provenance.js';
import type { Untraced } from './provenance/traceArguments.js';

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
  const sources = taintSourcesOf(state).map(({ source, id }) => ({
    tool: source,
    id,
    excerpt: excerptOf(outside.get(id)?.texts ?? []),
  }));
  return untraced === undefined
    ? { sources }
    : { sources, untraced: { argument: untraced.argument, value: untraced.value, foundIn: [...untraced.foundIn] } };
}

function excerptOf(texts: readonly string[]): string {
  const text = texts.join('\n');
  return text.length <= EXCERPT_LENGTH ? text : `${text.slice(0, EXCERPT_LENGTH - 1)}…`;
}
