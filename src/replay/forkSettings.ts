import { dirname, relative, resolve } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';
import type { Trajectory } from '../trajectory/types.js';

/**
 * Where to fork a recording: after its turn `turn` (the first `turn` turns served from it, the rest live), of its
 * sample `sample` (1, the default: the file's own run; see samplesOf).
 */
export type ForkAt = number | { turn: number; sample?: number };

/** A fork's parent and where it is forked, resolved. */
export interface ForkSettings {
  /**
   * Who asks for the fork: the `forkAt` option (the run forks `file` into `out`), or the file's own `fork:` (a fork
   * recorded again is forked again, from the parent it names).
   */
  from: 'forkAt' | 'file';
  /** The parent file, absolute. */
  parent: string;
  /** The parent as messages name it: relative to where the user is. */
  parentShown: string;
  turn: number;
  /** 1: the file's own run. */
  sample: number;
  /** The command that re-records the parent: a divergence in the forked turns is the parent's to re-record. */
  rerecord: string;
}

/**
 * The fork of a run, or undefined for none: the one `forkAt` asks for (it forks `file`, the parent, into `out`, each
 * resolved by `inProject` as every trajectory path is), else the one the file (`trajectory`, read from `file`)
 * records. Refuses (`invalid_fork`) a fork without a parent or a file of its own, one whose file is the parent, a turn
 * or sample that is not a whole number of at least 1, and an `out` without a `forkAt`. `rerecord` says how to
 * re-record the parent, shown as given.
 */
export function forkSettingsOf(
  given: { file?: string; forkAt?: ForkAt; out?: string },
  trajectory: Trajectory | undefined,
  inProject: (path: string) => string,
  cwd: string,
  rerecord: (parentShown: string) => string,
): ForkSettings | undefined {
  const forked = forkAsked(given, inProject);
  const file = given.file === undefined ? undefined : inProject(given.file);
  const own = trajectory?.fork;
  if (forked === undefined && (own === undefined || file === undefined)) return undefined;
  const { from, parent, turn, sample } = forked ?? {
    from: 'file' as const,
    parent: resolve(dirname(file!), own!.parent),
    turn: own!.turn,
    sample: own!.sample ?? 1,
  };
  const parentShown = relative(cwd, parent) || parent;
  return { from, parent, parentShown, turn, sample, rerecord: rerecord(parentShown) };
}

/** The fork `forkAt` asks for, checked; undefined when none is. */
function forkAsked(
  given: { file?: string; forkAt?: ForkAt; out?: string },
  inProject: (path: string) => string,
): Pick<ForkSettings, 'from' | 'parent' | 'turn' | 'sample'> | undefined {
  const { file, forkAt, out } = given;
  if (forkAt === undefined) {
    if (out === undefined) return undefined;
    throw new UsageError(
      'invalid_fork',
      `'out' names the file a fork is written to, but no 'forkAt' was given: pass forkAt (the turn of ` +
        `${file ?? 'file'} to fork at), or leave out 'out'.`,
    );
  }
  const { turn, sample = 1 } = typeof forkAt === 'object' && forkAt !== null ? forkAt : { turn: forkAt };
  for (const [name, value] of [
    ['forkAt', turn],
    ['The sample of forkAt', sample],
  ] as const) {
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw new UsageError(
        'invalid_fork',
        `${name} must be a whole number of at least 1 (forkAt: 2, or forkAt: { turn: 2, sample: 3 }), but it was ` +
          `${describeValue(value)}.`,
      );
    }
  }
  if (file === undefined) {
    throw new UsageError('invalid_fork', "A fork needs the recording to fork: pass 'file', its trajectory file.");
  }
  if (out === undefined) {
    throw new UsageError(
      'invalid_fork',
      `A fork of ${file} is written to a file of its own and never over its parent: pass 'out', the file to write.`,
    );
  }
  const parent = inProject(file);
  if (inProject(out) === parent) {
    throw new UsageError(
      'invalid_fork',
      `'out' is the file to fork (${file}): a fork never overwrites its parent. Name another file for it.`,
    );
  }
  return { from: 'forkAt', parent, turn, sample };
}
