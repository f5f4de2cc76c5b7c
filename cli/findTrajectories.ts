import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileProblem } from './fileProblem.js';

const TRAJECTORY_FILE = /\.ya?ml$/;

interface FoundTrajectories {
  /** Trajectory files, sorted, relative to cwd: files as given, and those found in folders. */
  files: string[];
  /** Paths given that do not exist, relative to cwd. */
  missing: string[];
  /** Folders that could not be listed: one line each, `folder: cannot be read: …`. */
  unreadable: string[];
}

/**
 * The trajectory files under the given paths (files as given, folders searched; symlinks inside
 * a folder are not followed into). Nothing here throws on a bad path: a path that cannot be
 * looked at is kept as a file, so reading it gives that file its own verdict.
 */
export function findTrajectories(paths: string[], cwd = process.cwd()): FoundTrajectories {
  const shown = (path: string) => relative(cwd, path) || path;
  const files = new Set<string>();
  const missing: string[] = [];
  const unreadable: string[] = [];
  for (const path of paths) {
    const kind = kindOf(path);
    if (kind === 'missing') missing.push(shown(path));
    else if (kind === 'folder')
      walk(path, files, (folder, error) => unreadable.push(fileProblem(shown(folder), error)));
    else files.add(path);
  }
  return { files: [...files].map(shown).sort(), missing, unreadable };
}

/** A folder to search, a path that is not there at all, or anything else (read as a file). */
function kindOf(path: string): 'folder' | 'missing' | 'file' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    // Only a path that is not there at all is missing; a dangling symlink, a loop or a folder
    // that may not be searched is kept as a file, and its read says what is wrong.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return 'file';
    try {
      lstatSync(path);
      return 'file';
    } catch {
      return 'missing';
    }
  }
}

function walk(directory: string, into: Set<string>, cannotList: (folder: string, error: unknown) => void): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    cannotList(directory, error);
    return;
  }
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(path, into, cannotList);
    else if (TRAJECTORY_FILE.test(entry.name)) into.add(path);
  }
}
