import { describeValue } from '../json/describeValue.js';
import { copyToolRecord, emptyToolRecord, type ToolRecord } from './toolRecord.js';

/**
 * Everything the guard remembers about a run, as plain data: it can be saved with a suspended
 * run and handed on with a conversation, so a transfer never forgets what was read.
 */
export interface GuardState {
  /** Set once an untrusted tool succeeded: its content is in the conversation. The first such source. */
  taint: TaintSource | null;
  /**
   * Every source of untrusted content in the conversation, in the order it entered (`taint` is the
   * first). Legate always writes it; a state from an older result may lack it, and is read as
   * holding `taint` alone (see {@link taintSourcesOf}).
   */
  taintSources?: readonly TaintSource[];
  /** Tools that have succeeded at least once, with the turn of their first success. */
  successes: ToolRecord;
  /** Attempts per tool towards a limit: calls the guard let through to a tool the agent in charge has (isAttempt). */
  attempts: ToolRecord;
  /** Set once a terminal tool succeeded. */
  terminatedBy: { tool: string; id: string } | null;
}

/** Untrusted content in the conversation: the tool (or server tool) that brought it, and the call's id. */
export interface TaintSource {
  source: string;
  id: string;
}

export function initialGuardState(): GuardState {
  return {
    taint: null,
    taintSources: [],
    successes: emptyToolRecord(),
    attempts: emptyToolRecord(),
    terminatedBy: null,
  };
}

/** The state's taint sources, in order: its list, or, for a state from an older result, its first source alone. */
export function taintSourcesOf(state: GuardState): readonly TaintSource[] {
  return state.taintSources ?? (state.taint === null ? [] : [state.taint]);
}

/**
 * Records untrusted content entering the conversation, in place: the first source taints, every
 * source is listed once (by call id). The list is never changed in place but replaced, so states
 * may share one.
 */
export function addTaintSource(state: GuardState, source: TaintSource): void {
  state.taint ??= { source: source.source, id: source.id };
  const sources = taintSourcesOf(state);
  state.taintSources = sources.some((known) => known.id === source.id)
    ? sources
    : [...sources, { source: source.source, id: source.id }];
}

/**
 * What makes a value not a guard state, or undefined. A state handed in from outside (a
 * previous result, kept as JSON) is checked before the guard reads it.
 */
export function guardStateProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `it was ${describeValue(value)}`;
  const state = value as Record<string, unknown>;
  const pair = (key: string, a: string, b: string) => {
    const v = state[key];
    const ok =
      v === null ||
      (typeof v === 'object' &&
        typeof (v as Record<string, unknown>)[a] === 'string' &&
        typeof (v as Record<string, unknown>)[b] === 'string');
    return ok ? undefined : `'${key}' must be null or { ${a}, ${b} } with strings, but it was ${describeValue(v)}`;
  };
  const counts = (key: string) => {
    const v = state[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return `'${key}' must be an object of counts by tool name, but it was ${describeValue(v)}`;
    const bad = Object.keys(v).find((name) => {
      const count = (v as Record<string, unknown>)[name];
      return !(Number.isSafeInteger(count) && (count as number) >= 0);
    });
    return bad === undefined
      ? undefined
      : `'${key}.${bad}' must be a whole number of at least 0, but it was ` +
          `${describeValue((v as Record<string, unknown>)[bad])}`;
  };
  return (
    pair('taint', 'source', 'id') ??
    sourcesProblem(state.taintSources, state.taint) ??
    counts('successes') ??
    counts('attempts') ??
    pair('terminatedBy', 'tool', 'id')
  );
}

/** `taintSources`: absent (an older result), or a list of { source, id } that starts with `taint`. */
function sourcesProblem(value: unknown, taint: unknown): string | undefined {
  if (value === undefined) return undefined;
  const bad = `'taintSources' must be a list of { source, id } with strings, but it was`;
  if (!Array.isArray(value)) return `${bad} ${describeValue(value)}`;
  for (const [i, entry] of value.entries()) {
    const e = entry as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || typeof e.source !== 'string' || typeof e.id !== 'string')
      return `'taintSources[${i}]' must be { source, id } with strings, but it was ${describeValue(entry)}`;
  }
  const first = value[0] as TaintSource | undefined;
  const t = taint as TaintSource | null;
  const agrees =
    t === null ? first === undefined : first !== undefined && first.id === t.id && first.source === t.source;
  return agrees
    ? undefined
    : `'taintSources' must start with 'taint' (the first source), but its first entry was ${describeValue(first)} ` +
        `and 'taint' was ${describeValue(taint)}`;
}

/** A checked guard state from outside, copied into prototype-free records. */
export function copyGuardState(state: GuardState): GuardState {
  return {
    taint: state.taint === null ? null : { source: state.taint.source, id: state.taint.id },
    taintSources: taintSourcesOf(state).map(({ source, id }) => ({ source, id })),
    successes: copyToolRecord(state.successes),
    attempts: copyToolRecord(state.attempts),
    terminatedBy: state.terminatedBy === null ? null : { tool: state.terminatedBy.tool, id: state.terminatedBy.id },
  };
}
