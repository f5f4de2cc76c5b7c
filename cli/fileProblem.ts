import { TrajectoryFormatError, TrajectoryNotFoundError, loadTrajectory, type Trajectory } from '../src/index.js';
import { debugging, describeError, oneLine } from './describeError.js';

/** A trajectory read from disk, or why it could not be: one line, starting with the path as shown. */
export type LoadedFile = { ok: true; trajectory: Trajectory } | { ok: false; problem: string };

/**
 * Reads one trajectory file for a command. Whatever goes wrong with this file (missing, not a
 * regular file, unreadable, malformed, or an error nobody expected) becomes its one-line verdict,
 * `shown:line:column: problem` or `shown: problem`, so the command can go on to the next file.
 */
export function loadFile(absolute: string, shown: string): LoadedFile {
  try {
    return { ok: true, trajectory: loadTrajectory(absolute) };
  } catch (error) {
    return { ok: false, problem: fileProblem(shown, error, absolute) };
  }
}

/**
 * The one-line verdict for a file that could not be read; `absolute`, where a message names it, is shown as `shown`.
 */
export function fileProblem(shown: string, error: unknown, absolute?: string): string {
  if (error instanceof TrajectoryFormatError)
    return `${TrajectoryFormatError.location(shown, error.line, error.column)}: ${oneLine(error.problem)}`;
  if (error instanceof TrajectoryNotFoundError) return `${shown}: does not exist`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code))
    return `${shown}: cannot be read: ${systemReason(error, code)}`;
  // Any other error (one the reader adds later, or a bug): its own words, naming the file once, as shown.
  const message =
    error instanceof Error
      ? oneLine(absolute === undefined ? error.message : error.message.replaceAll(absolute, shown))
      : '';
  if (!debugging() && message.startsWith(shown))
    return `${shown}: ${message.slice(shown.length).replace(/^:?\s*/, '')}`;
  return `${shown}: ${describeError(error)}`;
}

/** `ELOOP: too many symbolic links encountered, open '/abs/x.yaml'` → `too many symbolic links encountered (ELOOP)`. */
function systemReason(error: Error, code: string): string {
  const reason = error.message.replace(new RegExp(`^${code}: `), '').replace(/, \w+ '.*'$/s, '');
  return `${oneLine(reason)} (${code})`;
}
