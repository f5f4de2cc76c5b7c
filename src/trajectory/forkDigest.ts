import { digestOf } from '../json/canonicalJson.js';
import type { Trajectory } from './types.js';

/**
 * The fields of a run that are not what a fork takes from it: how the recording is named and when, by what, it was
 * made (a re-recording that reproduces the same turns leaves a fork valid), and the run's body past its header, of
 * which only the forked turns count.
 */
const NOT_FORKED = new Set([
  'name',
  'description',
  'recordedAt',
  'legate',
  'sdk',
  'fork',
  'clock',
  'turns',
  'summary',
  'conversations',
  'samples',
]);

/**
 * The digest of what a fork takes from a run (one sample of a file: see samplesOf): its header without the fields
 * above, and its first `turn` turns, as canonical JSON. A fork records it (`fork.digest`), and its replay compares
 * it with the parent's again to tell whether the parent changed since.
 */
export function forkDigest(run: Trajectory, turn: number): string {
  const header = Object.fromEntries(Object.entries(run).filter(([key]) => !NOT_FORKED.has(key)));
  return digestOf({ header, turns: run.turns.slice(0, turn) });
}
