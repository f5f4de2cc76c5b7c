import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { TrajectoryFormatError } from '../trajectory/errors.js';
import { MAX_TRAJECTORY_BYTES, parseTrajectory } from '../trajectory/parseTrajectory.js';
import { createRedactor, redactTrajectory, type Redaction } from '../trajectory/redaction.js';
import { findSecretInYaml, SecretInTrajectoryError } from '../trajectory/secretScan.js';
import { serializeTrajectory } from '../trajectory/serialize.js';
import type { Trajectory } from '../trajectory/types.js';
import { writeFileAtomic } from '../files/writeFileAtomic.js';

/** A trajectory file that is not there. */
export class TrajectoryNotFoundError extends Error {
  override name = 'TrajectoryNotFoundError';
  constructor(
    readonly file: string,
    hint: string,
  ) {
    super(`${file} does not exist. ${hint}`);
  }
}

/** Reads and checks a trajectory file; a file over the size limit is refused before it is read. */
export function loadTrajectory(file: string, hint = `Record it first: LEGATE_MODE=record npx legate replay ${file}`): Trajectory {
  // One open: the size is checked on the file that is then read, not on a path looked up twice.
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new TrajectoryNotFoundError(file, hint);
    throw error;
  }
  try {
    const { size } = fstatSync(fd);
    if (size > MAX_TRAJECTORY_BYTES) {
      throw new TrajectoryFormatError(`the file is ${size} bytes, over the ${MAX_TRAJECTORY_BYTES}-byte limit for a trajectory; it was not read.`, file, undefined, undefined, undefined);
    }
    return parseTrajectory(readFileSync(fd, 'utf8'), file);
  } finally {
    closeSync(fd);
  }
}

export interface SaveOptions {
  redactions?: readonly Redaction[];
  /** Patterns beyond the built-in ones (`sk-ant-` keys, bearer tokens) that must never be saved, in any ordinary encoding. */
  secrets?: readonly (RegExp | string)[];
}

/** The trajectory as it would be saved: redacted. */
export function prepareTrajectory(trajectory: Trajectory, options: SaveOptions = {}): Trajectory {
  return redactTrajectory(createRedactor(options.redactions ?? []), trajectory);
}

/**
 * Saves a trajectory: redactions applied, then scanned for secrets (the YAML text that would be
 * written and every value and key it was written from, each as it is and behind the ordinary
 * encodings; a secret refuses the save and names its line, column and kind, never any part of
 * it), then written atomically. Returns what was written.
 */
export function saveTrajectory(file: string, trajectory: Trajectory, options: SaveOptions = {}): Trajectory {
  const redacted = prepareTrajectory(trajectory, options);
  const text = serializeTrajectory(redacted);
  const secret = findSecretInYaml(text, redacted, options.secrets);
  if (secret !== undefined) throw new SecretInTrajectoryError(file, secret);
  writeFileAtomic(file, text);
  return redacted;
}
