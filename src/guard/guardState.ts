import { describeValue } from '../json/describeValue.js';
import { copyToolRecord, emptyToolRecord, type ToolRecord } from './toolRecord.js';

/**
 * Everything the guard remembers about a run, as plain data: it can be saved with a suspended
 * run and handed on with a conversation, so a transfer never forgets what was read.
 */
export interface GuardState {
  /** Set once an untrusted tool succeeded: its content is in the conversation. */
  taint: { source: string; id: string } | null;
  /** Tools that have succeeded at least once, with the turn of their first success. */
  successes: ToolRecord;
  /** Attempts per tool towards a limit: calls the guard let through to a tool the agent in charge has (isAttempt). */
  attempts: ToolRecord;
  /** Set once a terminal tool succeeded. */
  terminatedBy: { tool: string; id: string } | null;
}

export function initialGuardState(): GuardState {
  return { taint: null, successes: emptyToolRecord(), attempts: emptyToolRecord(), terminatedBy: null };
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
        v !== null &&
        typeof (v as Record<string, unknown>)[a] === 'string' &&
        typeof (v as Record<string, unknown>)[b] === 'string');
    return ok ? undefined : `'${key}' must be null or { ${a}, ${b} } with strings, but it was ${describeValue(v)}`;
  };
  const counts = (key: string) => {
    const v = state[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return `'${key}' must be an object of counts by tool name, but it was ${describeValue(v)}`;
    const bad = Object.keys(v).find(
      (name) =>
        !(
          Number.isSafeInteger((v as Record<string, unknown>)[name]) && ((v as Record<string, number>)[name] ?? -1) >= 0
        ),
    );
    return bad === undefined
      ? undefined
      : `'${key}.${bad}' must be a whole number of at least 0, but it was ` +
          `${describeValue((v as Record<string, unknown>)[bad])}`;
  };
  return (
    pair('taint', 'source', 'id') ?? counts('successes') ?? counts('attempts') ?? pair('terminatedBy', 'tool', 'id')
  );
}

/** A checked guard state from outside, copied into prototype-free records. */
export function copyGuardState(state: GuardState): GuardState {
  return {
    taint: state.taint === null ? null : { source: state.taint.source, id: state.taint.id },
    successes: copyToolRecord(state.successes),
    attempts: copyToolRecord(state.attempts),
    terminatedBy: state.terminatedBy === null ? null : { tool: state.terminatedBy.tool, id: state.terminatedBy.id },
  };
}
