import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that readers see the old content or the new, never half of either:
 * a temporary file beside it, flushed to disk, then renamed over it.
 */
export function writeFileAtomic(path: string, text: string): void {
  withTemporaryFile(
    path,
    (fd) => writeAll(fd, text),
    (temporary) => renameSync(temporary, path),
  );
}

/** Pieces are gathered up to this many characters before a write, so that many small ones cost few system calls. */
const GATHER = 1 << 16;

/**
 * {@link writeFileAtomic} for a file made piece by piece, too large to hold as one string (a page of many
 * trajectories): each piece is written to the temporary file as it is made, and the file is renamed into place once
 * the last one is written. If making a piece throws, the temporary file is removed and the error thrown: the old
 * file, if any, is untouched and nothing half-written remains. Returns the bytes written.
 */
export function writeFileAtomicFrom(path: string, pieces: Iterable<string>): number {
  let bytes = 0;
  const write = (fd: number, text: string) => {
    bytes += writeAll(fd, text);
  };
  withTemporaryFile(
    path,
    (fd) => {
      let gathered: string[] = [];
      let length = 0;
      for (const piece of pieces) {
        gathered.push(piece);
        length += piece.length;
        if (length < GATHER) continue;
        write(fd, gathered.join(''));
        gathered = [];
        length = 0;
      }
      write(fd, gathered.join(''));
    },
    (temporary) => renameSync(temporary, path),
  );
  return bytes;
}

/**
 * Creates a file with its whole content, only if no file has that name: true for the one writer
 * that made it, false if it existed. The content is written and flushed first, then hard-linked
 * into place, which is atomic and exclusive: of two processes at once, one wins, and a reader
 * never sees a half-written file.
 */
export function createFileExclusive(path: string, text: string): boolean {
  let created = true;
  withTemporaryFile(
    path,
    (fd) => writeAll(fd, text),
    (temporary) => {
      try {
        linkSync(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        created = false;
      }
      rmSync(temporary, { force: true });
    },
  );
  return created;
}

const TEMPORARY = /^\..+\.legate-tmp-(\d+)-[0-9a-f]{8}$/;

/** How old a temporary file of a live process must be before it is taken for left behind. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/**
 * Removes the temporary files that writers killed mid-write left in a folder: those whose writing
 * process (on this machine) no longer runs, and any older than `olderThanMs`. A live writer's fresh
 * temporary file is left alone. Returns the names removed.
 */
export function removeStaleTemporaryFiles(
  directory: string,
  olderThanMs = STALE_TEMPORARY_MS,
  now = Date.now(),
): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(directory)) {
    const match = TEMPORARY.exec(name);
    if (match === null) continue;
    const path = join(directory, name);
    try {
      if (processRuns(Number(match[1])) && now - statSync(path).mtimeMs < olderThanMs) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Gone already (its writer finished), or not ours to remove: leave it.
    }
  }
  return removed;
}

function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes all of `text` (UTF-8) at the file's position, however many writes the system takes; returns the bytes. */
export function writeAll(fd: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
  return bytes.length;
}

/**
 * A fresh name beside `path` for a temporary file of this process: hidden, and of the form
 * {@link removeStaleTemporaryFiles} knows, so that one a killed writer left behind is removed.
 */
export function temporaryPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.legate-tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

function withTemporaryFile(path: string, fill: (fd: number) => void, place: (temporary: string) => void): void {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const temporary = temporaryPathBeside(path);
  try {
    const fd = openSync(temporary, 'wx');
    try {
      fill(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    place(temporary);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(directory);
}

/** Makes the rename itself durable where the platform allows opening a directory. */
function syncDirectory(directory: string): void {
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported everywhere (Windows); the rename has still happened.
  }
}
