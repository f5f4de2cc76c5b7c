import { dirname, relative, sep } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { forkDigest } from '../trajectory/forkDigest.js';
import { samplesOf } from '../trajectory/samplesOf.js';
import { loadTrajectory, TrajectoryNotFoundError } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';
import type { ForkSettings } from './forkSettings.js';

/** What a fork takes from its parent: one run of it, and its first turns, which the fork serves. */
export interface ForkedPart {
  /** The parent's run forked from (its sample), whole: its clock readings are served while the forked turns run. */
  run: Trajectory;
  /** The same run with only its first `turn` turns: what the fork serves, every request compared. */
  served: Trajectory;
  turn: number;
  sample: number;
  /** Of the run's header and its first `turn` turns (see forkDigest). */
  digest: string;
}

/**
 * The part of `parent` a fork serves, checked: a parent recorded by legate's runtime (not at the HTTP boundary, not
 * a fuzz finding, whose `expect:` a fork would not keep), the sample it has, and a turn after which the run went
 * on: 1 to the last turn but one, or the last when the run ended suspended (the fork then decides the held calls,
 * and what follows is live).
 */
function forkedPart(parent: Trajectory, settings: ForkSettings): ForkedPart {
  const { parentShown: shown, turn, sample } = settings;
  if (parent.boundary === 'http') {
    throw new UsageError(
      'invalid_fork',
      `${shown} was recorded at the HTTP boundary (legate/intercept): its turns are a client's traffic, which no ` +
        "agent of legate's config continues, so it cannot be forked. Fork a run recorded by legate's own runtime.",
    );
  }
  if (parent.expect !== undefined) {
    throw new UsageError(
      'invalid_fork',
      `${shown} is a fuzz finding: it states what its replay must see (expect:), which a fork's live turns would ` +
        'not keep. Fork the recording of an ordinary run instead.',
    );
  }
  const samples = samplesOf(parent);
  const run = samples[sample - 1];
  if (run === undefined) {
    const held = samples.length === 1 ? 'one run (sample 1)' : `${samples.length} samples`;
    throw new UsageError(
      'invalid_fork',
      `${shown} holds ${held}, so it has no sample ${sample} to fork; give a sample from 1 to ${samples.length}.`,
    );
  }
  const turns = run.turns.length;
  const suspended = run.summary.stopReason === 'suspended';
  const last = suspended ? turns : turns - 1;
  if (turn > last) {
    const of = sample === 1 ? shown : `sample ${sample} of ${shown}`;
    const why =
      turn > turns
        ? `${of} has ${turns} turn${turns === 1 ? '' : 's'}, so there is no turn ${turn} to fork at`
        : `the run of ${of} ended after its last turn, ${turns} (${run.summary.stopReason}), so a fork there would ` +
          'have nothing to continue';
    const range =
      last === 0
        ? 'it has no turn to fork at (a fork serves the turns up to the one it forks at, and continues live after it)'
        : `fork at a turn from 1 to ${last}${suspended ? ` (${turns}: the run ended suspended for approval)` : ''}`;
    throw new UsageError('invalid_fork', `${why}: ${range}.`);
  }
  return {
    run,
    served: { ...run, turns: run.turns.slice(0, turn) },
    turn,
    sample,
    digest: forkDigest(run, turn),
  };
}

/**
 * The part of its parent a fork recorded to `shown` serves: of the parent `given` (read already), else read from its
 * file. A parent that is not there is a `TrajectoryNotFoundError` for a fork asked for, and a refusal
 * (`invalid_fork`) for a fork recorded again.
 */
export function loadForkedPart(settings: ForkSettings, shown: string, given?: Trajectory): ForkedPart {
  if (given !== undefined) return forkedPart(given, settings);
  const { parent, parentShown, from } = settings;
  let loaded: Trajectory;
  try {
    loaded = loadTrajectory(parent);
  } catch (error) {
    if (!(error instanceof TrajectoryNotFoundError)) throw error;
    if (from === 'forkAt') {
      throw new TrajectoryNotFoundError(parentShown, 'There is nothing to fork: check the path, or record it first.');
    }
    throw new UsageError(
      'invalid_fork',
      `${shown} is a fork of ${parentShown} (its fork:), which does not exist, and a fork is recorded again by ` +
        'forking its parent again. Restore the parent, or record a new file.',
      { cause: error },
    );
  }
  return forkedPart(loaded, settings);
}

/** The `fork:` a fork written to `file` records: its parent relative to the fork's folder, with `/` between names. */
export function forkOrigin(part: ForkedPart, parent: string, file: string): NonNullable<Trajectory['fork']> {
  return {
    parent: relative(dirname(file), parent).split(sep).join('/'),
    turn: part.turn,
    ...(part.sample === 1 ? {} : { sample: part.sample }),
    digest: part.digest,
  };
}
