import { emptyToolRecord, type ToolRecord } from './toolRecord.js';

/**
 * Everything the guard remembers about a run, as plain data: it can be saved with a suspended
 * run and handed on with a conversation, so a transfer never forgets what was read.
 */
export interface GuardState {
  /** Set once an untrusted tool succeeded: its content is in the conversation. */
  taint: { source: string; id: string } | null;
  /** Tools that have succeeded at least once, with the turn of their first success. */
  successes: ToolRecord;
  /** Attempts per tool (every call the guard let through). */
  attempts: ToolRecord;
  /** Set once a terminal tool succeeded. */
  terminatedBy: { tool: string; id: string } | null;
}

export function initialGuardState(): GuardState {
  return { taint: null, successes: emptyToolRecord(), attempts: emptyToolRecord(), terminatedBy: null };
}
