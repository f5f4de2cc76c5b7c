import { constants as bufferConstants } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { LegateError } from '../errors/LegateError.js';

/** Why a file could not be read: absent, not a regular file, over the limit, or refused by the system. */
type FileReadProblem = 'not_found' | 'not_a_file' | 'too_large' | 'unreadable';

/** A file that {@link readRegularFile} would not or could not read, with the path and the reason. */
export class FileReadError extends LegateError {
  constructor(
    readonly code: FileReadProblem,
    readonly file: string,
    /** What was wrong, without the path. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${problem}`, options);
  }
}

// Opening a FIFO for reading blocks until a writer appears; O_NONBLOCK makes the open return at
// once, so the fstat below can refuse one that took the place of a file after the stat. It changes
// nothing for a regular file. (Not on Windows.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const FIRST_READ = 64 * 1024;

/**
 * The most bytes a file read into one string can hold (the engine's longest string): the limit for a file that has
 * none of its own (a replay blob, an OpenAPI document, an MCP pin file).
 */
export const MAX_STRING_FILE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/**
 * Reads a regular file as UTF-8, at most `maxBytes` of it. Symbolic links are followed; what
 * they lead to must be a regular file: a directory, a FIFO, a device (`/dev/zero`) or a socket
 * is refused before a byte is read. The limit holds on the bytes actually read, not on the size
 * the system reports (a device reports 0, a file may grow): reading stops one byte past it.
 */
export function readRegularFile(file: string, maxBytes: number): string {
  // What the path leads to is looked at before it is opened: a FIFO is never opened (that would release a writer
  // waiting on it). The fstat after the open still decides, for a path that changes in between.
  const before = statOrUndefined(file);
  if (before !== undefined && !before.isFile()) throw notAFile(file, before);
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new FileReadError('not_found', file, 'it does not exist.', { cause: error });
    throw new FileReadError('unreadable', file, `it could not be opened: ${systemReason(error)}.`, { cause: error });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notAFile(file, stats);
    return readAtMost(fd, file, stats.size, maxBytes).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function readAtMost(fd: number, file: string, reportedSize: number, maxBytes: number): Buffer {
  const limit = maxBytes + 1; // one byte past the limit is enough to know it is over
  // The reported size and one byte more, which the read that finds the end needs: a file that grew is read on, a
  // file that reports no size (procfs) from FIRST_READ bytes.
  let buffer = Buffer.allocUnsafe(Math.min(limit, reportedSize > 0 ? reportedSize + 1 : FIRST_READ));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= limit)
        throw new FileReadError(
          'too_large',
          file,
          `it is over the ${maxBytes}-byte limit (more than ${maxBytes} bytes were read); it was not read further.`,
        );
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const wanted = buffer.length - length;
    let read: number;
    try {
      read = readSync(fd, buffer, length, wanted, null);
    } catch (error) {
      throw new FileReadError('unreadable', file, `it could not be read: ${systemReason(error)}.`, { cause: error });
    }
    if (read === 0) return buffer.subarray(0, length);
    length += read;
    // A read that came short just where the reported size ends found the file's end: no read more to be told so.
    // (One that came short before it, or a file that grew past it, is read on.)
    if (read < wanted && length === reportedSize) return buffer.subarray(0, length);
  }
}

/** The path's stats (symbolic links followed), or undefined where it cannot be looked at: the open says why. */
function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function notAFile(file: string, stats: Stats): FileReadError {
  const problem = `it is ${kindOf(stats)}, not a regular file; only a regular file (or a link to one) is read.`;
  return new FileReadError('not_a_file', file, problem);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'something other than a file';
}

/** `permission denied (EACCES)`: the system's reason, without Node's repetition of the path. */
function systemReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
  return code === undefined ? reason : `${reason} (${code})`;
}
