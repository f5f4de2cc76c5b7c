import { TrajectoryFormatError, TrajectoryNotFoundError, loadTrajectory, type Trajectory } from '../src/index.js';
import { FileReadError } from '../src/files/readRegularFile.js';
import { debugging, describeError, oneLine } from './describeError.js';
import { terminalLines, terminalText } from './terminalText.js';

/**
 * A trajectory read from disk, or why it could not be: one line, starting with the path as shown. `notRead` says
 * the file was not read at all (missing, not a regular file, refused by the system): bad input, exit 2, where a
 * file that was read and is not a valid trajectory is a finding.
 */
type LoadedFile = { ok: true; trajectory: Trajectory } | { ok: false; problem: string; notRead: boolean; code: string };

/**
 * Reads one trajectory file for a command. Whatever goes wrong with this file (missing, not a
 * regular file, unreadable, malformed, or an error nobody expected) becomes its one-line verdict,
 * `shown:line:column: problem` or `shown: problem`, so the command can go on to the next file.
 */
export function loadFile(absolute: string, shown: string): LoadedFile {
  try {
    return { ok: true, trajectory: loadTrajectory(absolute) };
  } catch (error) {
    return { ok: false, problem: fileProblem(shown, error, absolute), notRead: notRead(error), code: errorCode(error) };
  }
}

/** Whether `error` says a file was not read at all, rather than read and found wrong. */
function notRead(error: unknown): boolean {
  if (error instanceof TrajectoryNotFoundError) return true;
  if (error instanceof TrajectoryFormatError) return error.code !== 'invalid_trajectory';
  return isSystemError(error);
}

/** Whether `error` is one the system raised on a file (its code `ENOENT`, `EACCES`, `ENOSPC`, ...). */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return /^E[A-Z]+$/.test(String((error as NodeJS.ErrnoException | undefined)?.code));
}

/** An error's stable code: legate's own, else the system's (`EACCES`), else the class's name. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : typeof error;
}

/** The one line for a path that is not there. */
export function missingProblem(shown: string): string {
  return `${terminalText(shown)}: does not exist; check the path (a relative one is resolved from the working folder)`;
}

/**
 * The one-line verdict for a file that could not be read; `absolute`, where a message names it, is shown as `shown`.
 * What it quotes of the file, and the file's name, are escaped for a terminal (see terminalText).
 */
export function fileProblem(shown: string, error: unknown, absolute?: string): string {
  return terminalLines(problemWith(terminalText(shown), error, absolute));
}

function problemWith(shown: string, error: unknown, absolute?: string): string {
  if (error instanceof TrajectoryFormatError)
    return withAdvice(
      `${TrajectoryFormatError.location(shown, error.line, error.column)}: ${oneLine(error.problem)}`,
      error,
    );
  if (error instanceof TrajectoryNotFoundError) return missingProblem(shown);
  if (error instanceof FileReadError) return withAdvice(`${shown}: ${oneLine(error.problem)}`, error);
  if (error instanceof Error && isSystemError(error))
    return withAdvice(`${shown}: cannot be read: ${systemReason(error, error.code)}`, error);
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

/** What to do about a file the system would not open, by its error code (that of `error` or of its cause). */
const ADVICE: Record<string, string> = {
  ELOOP: 'a symbolic link on the path leads back to itself: fix or remove the link',
  EACCES: 'give yourself read permission (chmod u+r), or run as a user who may read it',
  EPERM: 'give yourself read permission (chmod u+r), or run as a user who may read it',
};

function withAdvice(line: string, error: Error): string {
  let advice: string | undefined;
  for (let at: unknown = error; advice === undefined && at instanceof Error; at = at.cause) {
    advice = ADVICE[String((at as NodeJS.ErrnoException).code)];
  }
  return advice === undefined ? line : `${line.replace(/\.$/, '')}; ${advice}.`;
}
