import { existsSync, readFileSync, statSync } from 'node:fs';
import { TrajectoryFormatError } from '../trajectory/errors.js';
import { MAX_TRAJECTORY_BYTES, parseTrajectory } from '../trajectory/parseTrajectory.js';
import { createRedactor, redactTrajectory, type Redaction } from '../trajectory/redaction.js';
import { findSecret, SecretInTrajectoryError } from '../trajectory/secretScan.js';
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
  if (!existsSync(file)) throw new TrajectoryNotFoundError(file, hint);
  const { size } = statSync(file);
  if (size > MAX_TRAJECTORY_BYTES) {
    throw new TrajectoryFormatError(`the file is ${size} bytes, over the ${MAX_TRAJECTORY_BYTES}-byte limit for a trajectory; it was not read.`, file, undefined, undefined, undefined);
  }
  return parseTrajectory(readFileSync(file, 'utf8'), file);
}

export interface SaveOptions {
  redactions?: readonly Redaction[];
  /** Patterns beyond the built-in ones (`sk-ant-`, `Bearer `) that must never be saved. */
  secrets?: readonly (RegExp | string)[];
}

/** The trajectory as it would be saved: redacted. */
export function prepareTrajectory(trajectory: Trajectory, options: SaveOptions = {}): Trajectory {
  return redactTrajectory(createRedactor(options.redactions ?? []), trajectory);
}

/**
 * Saves a trajectory: redactions applied, then the text scanned for secrets (a secret refuses
 * the save and names its line and column), then written atomically. Returns what was written.
 */
export function saveTrajectory(file: string, trajectory: Trajectory, options: SaveOptions = {}): Trajectory {
  const redacted = prepareTrajectory(trajectory, options);
  const text = serializeTrajectory(redacted);
  const secret = findSecret(text, options.secrets);
  if (secret !== undefined) throw new SecretInTrajectoryError(file, secret);
  writeFileAtomic(file, text);
  return redacted;
}
