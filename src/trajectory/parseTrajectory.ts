import { parseCarefully } from './carefulYaml.js';
import { TrajectoryFileError } from './errors.js';
import { FieldError } from './field.js';
import { MAX_TRAJECTORY_BYTES } from './limits.js';
import { readTrajectory } from './readTrajectory.js';
import type { Trajectory } from './types.js';
import { readWrittenYaml } from './writtenYaml.js';

/**
 * Reads a trajectory from YAML text. Anything wrong (bad YAML, an anchor, an alias, a tag, a
 * number that is not finite, a field of the wrong type, a newer format version) is a
 * {@link TrajectoryFormatError} with file:line:column.
 *
 * This is the one place that says which reader reads a text, and each is here for a reason:
 * - The writer's reader (`readWrittenYaml`) reads exactly what legate's writer emits, several
 *   times faster than a general YAML parser; replay reads such files by the hundred. It knows no
 *   positions, so it never refuses: it declines anything else, and the next reader takes the text.
 * - The careful reader (`parseCarefully`, the `yaml` library) reads any YAML: a file edited by
 *   hand or written by another tool, whose read costs about a millisecond more per few kilobytes.
 *   It alone places an error at file:line:column, so a text the writer's reader read whose
 *   value the format refuses is read again by it, to say where.
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
  const written = readWrittenYaml(text);
  if (written !== undefined) {
    try {
      return readTrajectory(written.value);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
    }
  }
  return parseCarefully(text, file);
}
