/**
 * Stop reasons of a run that ended complete: its answer given, or a terminal tool done (not cut off by max_tokens,
 * refused, suspended, out of turns, nor stopped for a reason this release does not know). `toBeComplete` checks a
 * run by it, and `legate compare` counts a sample as passed by it.
 */
export const COMPLETE_STOP_REASONS: readonly string[] = ['end_turn', 'stop_sequence', 'terminal'];
