import { dirname, join, resolve } from 'node:path';
import { LegateError } from '../errors/LegateError.js';
import { forkDigest } from '../trajectory/forkDigest.js';
import { samplesOf } from '../trajectory/samplesOf.js';
import { loadTrajectory, TrajectoryNotFoundError } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';

/** A fork's parent, as a run of the fork found it. */
export interface ForkOfRun {
  /** The parent file, absolute. */
  parent: string;
  /** The turn forked at: the parent's first `turn` turns were served, the turns after ran live. */
  turn: number;
  /** The parent's sample forked from (1: the file's own run). */
  sample: number;
  /**
   * `same`: the parent still holds what was forked. `changed`: its header or its first `turn` turns are not those
   * the fork was made from (the fork's `digest`), or it no longer holds the sample. `missing`: no file is there.
   * `unreadable`: the file is not a trajectory legate reads.
   */
  parentState: 'same' | 'changed' | 'missing' | 'unreadable';
  /** What the run reported, when the parent is not the same. */
  note?: string;
}

/**
 * How the parent of the fork in `file` (shown as `shown`) stands today: read from its path (relative to the fork's
 * folder) and its forked part's digest compared with the fork's. It never throws for the parent: a fork replays
 * on its own, so a parent changed or gone is something to tell, not a failure.
 */
export function forkParentState(fork: NonNullable<Trajectory['fork']>, file: string, shown: string): ForkOfRun {
  const parent = resolve(dirname(file), fork.parent);
  const parentShown = join(dirname(shown), fork.parent);
  const sample = fork.sample ?? 1;
  const state = { parent, turn: fork.turn, sample };
  const ofSample = sample === 1 ? '' : `sample ${sample} of `;
  const forkOf = `${shown} is a fork of ${ofSample}${parentShown} at turn ${fork.turn}`;
  const standsAlone = 'The fork still replays on its own, every turn of it';
  let loaded: Trajectory;
  try {
    loaded = loadTrajectory(parent);
  } catch (error) {
    if (error instanceof TrajectoryNotFoundError) {
      const note = `${forkOf}, and ${parentShown} is gone: no file is there. ${standsAlone}.`;
      return { ...state, parentState: 'missing', note };
    }
    if (!(error instanceof LegateError)) throw error;
    const note =
      `${forkOf}, and ${parentShown} cannot be read as a trajectory (${error.message.split('\n')[0]}). ` +
      `${standsAlone}.`;
    return { ...state, parentState: 'unreadable', note };
  }
  const run = samplesOf(loaded)[sample - 1];
  if (run === undefined || forkDigest(run, fork.turn) !== fork.digest) {
    const what =
      run === undefined
        ? `it no longer holds sample ${sample}`
        : `its header or its first ${fork.turn} turn${fork.turn === 1 ? '' : 's'} are not those the fork was made from`;
    const note =
      `${forkOf}, and ${parentShown} has changed since the fork: ${what}. ${standsAlone}; re-record it to fork ` +
      'again from the parent as it is now.';
    return { ...state, parentState: 'changed', note };
  }
  return { ...state, parentState: 'same' };
}
