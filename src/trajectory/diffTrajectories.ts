import { firstDifference } from '../json/firstDifference.js';
import { samplesOf } from './samplesOf.js';
import type { RecordedTurn, Trajectory } from './types.js';

/** One difference between two trajectories, located to a turn where it is in one. */
export interface TrajectoryChange {
  /** `header`, `turn 3`, or `summary`. */
  where: string;
  path: string;
  before: unknown;
  after: unknown;
}

/** Header fields that change with every recording and say nothing about behaviour. */
const VOLATILE = new Set(['recordedAt', 'legate', 'sdk']);

/**
 * The differences between two trajectories, turn by turn: the first difference in the header,
 * in each turn present in either, and in the summary. Volatile fields are left out. Files of
 * several samples are compared sample by sample (`sample 2, turn 3`).
 */
export function diffTrajectories(before: Trajectory, after: Trajectory): TrajectoryChange[] {
  const header = (t: Trajectory) =>
    Object.fromEntries(Object.entries(t).filter(([key]) => !VOLATILE.has(key) && !RUN.has(key)));
  const changes = changeAt('header', header(before), header(after));
  const [was, now] = [samplesOf(before), samplesOf(after)];
  const count = Math.max(was.length, now.length);
  for (let i = 0; i < count; i++) {
    const prefix = count === 1 ? '' : `sample ${i + 1}, `;
    const [a, b] = [was[i], now[i]];
    if (a === undefined || b === undefined) {
      changes.push({ where: `sample ${i + 1}`, path: '', before: a?.summary, after: b?.summary });
      continue;
    }
    for (const change of runChanges(a, b)) changes.push({ ...change, where: `${prefix}${change.where}` });
  }
  return changes;
}

/** Fields of one run (one sample), compared turn by turn rather than as the header. */
const RUN = new Set(['turns', 'summary', 'clock', 'conversations', 'samples']);

function runChanges(before: Trajectory, after: Trajectory): TrajectoryChange[] {
  const rest = (t: Trajectory) => ({ clock: t.clock, conversations: t.conversations });
  // The clock and further conversations sit in a file's header; a sample holds its own.
  const changes = changeAt('header', rest(before), rest(after));
  const turns = Math.max(before.turns.length, after.turns.length);
  for (let i = 0; i < turns; i++)
    changes.push(...changeAt(`turn ${i + 1}`, meaningFirst(before.turns[i]), meaningFirst(after.turns[i])));
  changes.push(...changeAt('summary', before.summary, after.summary));
  return changes;
}

/** The first difference between two values, as a change located at `where` (none when they are the same). */
function changeAt(where: string, before: unknown, after: unknown): TrajectoryChange[] {
  const difference = firstDifference(before, after);
  if (difference === undefined) return [];
  return [{ where, path: difference.path, before: difference.expected, after: difference.actual }];
}

/** A turn with what was said and done ahead of ids and token counts, so those are reported first. */
function meaningFirst(turn: RecordedTurn | undefined): unknown {
  if (turn === undefined) return undefined;
  const { content, stopReason, ...rest } = turn.response;
  return { agent: turn.agent, content, approvals: turn.approvals, results: turn.results, stopReason, response: rest };
}

/** A short summary of changes, one per line: `turn 2 at response.content[0].text`. */
export function summarizeChanges(changes: readonly TrajectoryChange[]): string {
  if (changes.length === 0) return 'unchanged';
  return changes.map((change) => `${change.where} at ${change.path === '' ? '(the whole)' : change.path}`).join('; ');
}
