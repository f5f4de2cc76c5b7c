import { FileReadError, readRegularFile } from '../files/readRegularFile.js';
import { conversationsOf, withConversations } from './conversationsOf.js';
import { samplesOf, withSamples } from './samplesOf.js';
import { TrajectoryFileError } from './errors.js';
import { MAX_TRAJECTORY_BYTES } from './limits.js';
import { parseTrajectory } from './parseTrajectory.js';
import { createRedactor, redactTrajectory, type Redaction } from './redaction.js';
import { findSecretInYaml, SecretInTrajectoryError } from './secretScan.js';
import { serializeTrajectory } from './serialize.js';
import { markRedactedInputs } from './redactedInputs.js';
import type { Trajectory } from './types.js';
import { writeFileAtomic } from '../files/writeFileAtomic.js';
import { LegateError } from '../errors/LegateError.js';

/**
 * How a program records a file it replays, where nothing more is known of who runs it: the command a
 * missing-file message ends with by default (replay/rerecordCommand.ts builds a fitter one where it can).
 */
export const RUN_AGAIN_TO_RECORD = 'run this program again with LEGATE_MODE=record set';

/**
 * What a replay that finds no recording says after naming the file: that there is nothing to replay, what a live
 * recording needs (said of any: a project's own command may record from a scripted model), then the command that
 * records the file, last, to copy. The one place these words
 * are written: every missing-recording message (`TrajectoryNotFoundError`) quotes it.
 */
export function recordFirst(command: string): string {
  return (
    'There is no recording to replay. A live recording sends requests to the Messages API, so it needs ' +
    'ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL to send them to a proxy or a stand-in instead). ' +
    `Record it with: ${command}`
  );
}

/** A trajectory file that is not there. */
export class TrajectoryNotFoundError extends LegateError {
  readonly code = 'trajectory_not_found';
  constructor(
    readonly file: string,
    hint: string,
  ) {
    super(`${file} does not exist. ${hint}`);
  }
}

/**
 * Reads and checks a trajectory file. Only a regular file (or a link to one) is read, and no more
 * than the size limit of it: anything else is a {@link TrajectoryFileError} naming the file.
 */
export function loadTrajectory(file: string, hint = recordFirst(RUN_AGAIN_TO_RECORD)): Trajectory {
  let text: string;
  try {
    text = readRegularFile(file, MAX_TRAJECTORY_BYTES);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    if (error.code === 'not_found') throw new TrajectoryNotFoundError(file, hint);
    const problem =
      error.code === 'too_large'
        ? `the file is over the ${MAX_TRAJECTORY_BYTES}-byte limit for a trajectory (more bytes were read than ` +
          'that); it was not parsed.'
        : error.problem;
    throw new TrajectoryFileError(error.code, problem, file, { cause: error });
  }
  return parseTrajectory(text, file);
}

export interface SaveOptions {
  redactions?: readonly Redaction[];
  /**
   * Patterns beyond the built-in ones (`sk-ant-` keys, bearer tokens) that must never be saved, in any ordinary
   * encoding.
   */
  secrets?: readonly (RegExp | string)[];
}

/**
 * The trajectory as it would be saved: redacted, each call whose input a redaction changed marked as such. Every
 * conversation of every sample of the file is (a recording at the HTTP boundary holds further ones under
 * `conversations`, a file recorded more than once further samples under `samples`).
 */
export function prepareTrajectory(trajectory: Trajectory, options: SaveOptions = {}): Trajectory {
  const redact = createRedactor(options.redactions ?? []);
  const samples = samplesOf(trajectory).map((sample) => {
    const conversations = conversationsOf(sample).map((conversation) => {
      const redacted = redactTrajectory(redact, conversation);
      markRedactedInputs(conversation.turns, redacted.turns);
      return redacted;
    });
    return sample.conversations === undefined ? conversations[0]! : withConversations(conversations);
  });
  return trajectory.samples === undefined ? samples[0]! : withSamples(samples);
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
