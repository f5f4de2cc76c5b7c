import { parseCarefully } from './carefulYaml.js';
import { TrajectoryFileError, TrajectoryFormatError } from './errors.js';
import { readPlainYaml } from './fastYaml.js';
import { MAX_DOCUMENT_DEPTH, MAX_TRAJECTORY_BYTES } from './limits.js';
import { FieldError } from './field.js';
import { readTrajectory } from './readTrajectory.js';
import type { Trajectory } from './types.js';
import { readWrittenYaml } from './writtenYaml.js';

export { MAX_TRAJECTORY_BYTES };

/**
 * Reads a trajectory from YAML text. Anything wrong (bad YAML, an anchor, an alias, a tag, a
 * number that is not finite, a field of the wrong type, a newer format version) is a
 * {@link TrajectoryFormatError} with file:line:column.
 */
export function parseTrajectory(text: string, file = '<trajectory>'): Trajectory {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TRAJECTORY_BYTES) {
    throw new TrajectoryFileError(
      'too_large',
      `the file is ${bytes} bytes, over the ${MAX_TRAJECTORY_BYTES}-byte limit for a trajectory; it was not parsed.`,
      file,
    );
  }
  // What legate's writer emits is read by a reader made for exactly that; it declines anything else.
  // Plain, well-formed files take the next fast path; anchors, aliases and tags are refused there;
  // anything else, and every error, goes the careful way, which knows where in the file each node is.
  const plain = readWrittenYaml(text) ?? readPlainYaml(text);
  if (plain !== undefined && 'refused' in plain) throw located(text, file, plain.refused.offset, plain.refused.problem);
  if (plain !== undefined) {
    try {
      return readTrajectory(plain.value);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
    }
  }
  try {
    return parseCarefully(text, file);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // The careful reader's parser recursed too deep on a file the fast one could not read either.
    throw new TrajectoryFormatError(
      `the file nests too deep to read (a trajectory holds at most ${MAX_DOCUMENT_DEPTH} levels of YAML) and ` +
        'is not valid YAML where the fast reader stopped.',
      file,
      undefined,
      undefined,
      undefined,
    );
  }
}

/** A problem at an offset of the text, as file:line:column, counted the way the careful reader counts. */
function located(text: string, file: string, offset: number, problem: string): TrajectoryFormatError {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return new TrajectoryFormatError(problem, file, line, offset - lineStart + 1, undefined);
}
