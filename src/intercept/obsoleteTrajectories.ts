import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isTrajectoryFileName, testTrajectoryFolder, trajectoriesFolder } from './testTrajectoryFile.js';

/** What a run of one test file tells about the trajectory files interceptThisTest keeps for it. */
export interface TestFileOutcome {
  /** The test file (absolute). */
  testFile: string;
  /** Every test of the file ran: none was skipped, todo, or left out by `.only` or a filter. */
  whole: boolean;
  /** The trajectory files the file keeps: those its tests claimed, and those named after a test that did not pass. */
  kept: readonly string[];
}

/** A trajectory file no test records to. */
export interface ObsoleteTrajectory {
  /** The file (absolute). */
  file: string;
  /** The test file it was recorded for (absolute). */
  testFile: string;
  /** `unclaimed`: its test file ran whole and none of its tests records to it; `gone`: its test file is gone. */
  reason: 'unclaimed' | 'gone';
}

/**
 * The trajectory files of a run that no test records to, sorted by path. A test file's folder
 * (`__trajectories__/<test file>/`) is judged only when the file ran whole (each test file's outcomes, one per vitest
 * project that ran it, all whole): then every file of it that no test kept is obsolete. Every file of the folder of a
 * test file that is gone is obsolete, where that folder is beside a test file that ran (each `__trajectories__` folder
 * beside one is read). Only the files whose names interceptThisTest gives are judged; any other is not legate's.
 */
export function findObsoleteTrajectories(outcomes: readonly TestFileOutcome[]): ObsoleteTrajectory[] {
  const byFile = new Map<string, { whole: boolean; kept: Set<string> }>();
  for (const outcome of outcomes) {
    const testFile = resolve(outcome.testFile);
    const seen = byFile.get(testFile) ?? { whole: true, kept: new Set<string>() };
    seen.whole &&= outcome.whole;
    for (const file of outcome.kept) seen.kept.add(resolve(file));
    byFile.set(testFile, seen);
  }
  const obsolete: ObsoleteTrajectory[] = [];
  for (const [testFile, { whole, kept }] of byFile) {
    if (!whole) continue;
    for (const file of trajectoryFiles(testTrajectoryFolder(testFile)))
      if (!kept.has(file)) obsolete.push({ file, testFile, reason: 'unclaimed' });
  }
  for (const folder of new Set([...byFile.keys()].map((testFile) => dirname(testFile)))) {
    for (const name of entries(trajectoriesFolder(folder), 'folders')) {
      const testFile = join(folder, name);
      if (lstatSync(testFile, { throwIfNoEntry: false }) !== undefined) continue;
      for (const file of trajectoryFiles(testTrajectoryFolder(testFile)))
        obsolete.push({ file, testFile, reason: 'gone' });
    }
  }
  return obsolete.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** What removing obsolete trajectories did. */
export interface Removal {
  /** The files removed. */
  files: string[];
  /** The folders removed because that left them empty: a test file's folder, then `__trajectories__`. */
  folders: string[];
  /** What could not be removed, and why. */
  failures: { path: string; message: string }[];
}

/**
 * Removes the files (each removal is one `unlink`: a reader sees the file or no file), then each folder they were in
 * that is left empty, and the `__trajectories__` folder above it if that is left empty too. A folder is only ever
 * removed empty: nothing that was not judged obsolete goes with it. A file already gone is passed over.
 */
export function removeObsoleteTrajectories(obsolete: readonly ObsoleteTrajectory[]): Removal {
  const removal: Removal = { files: [], folders: [], failures: [] };
  const attempt = (path: string, remove: (path: string) => void, passOver: readonly string[]): boolean => {
    try {
      remove(path);
      return true;
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (!passOver.includes(code ?? '')) removal.failures.push({ path, message });
      return false;
    }
  };
  for (const { file } of obsolete) if (attempt(file, unlinkSync, ['ENOENT'])) removal.files.push(file);
  // rmdir refuses a folder that is not empty (ENOTEMPTY; EEXIST on some systems): then it was not ours to remove.
  const notEmpty = ['ENOTEMPTY', 'EEXIST', 'ENOENT'];
  for (const folder of new Set(obsolete.map(({ file }) => dirname(file)))) {
    if (!attempt(folder, rmdirSync, notEmpty)) continue;
    removal.folders.push(folder);
    if (attempt(dirname(folder), rmdirSync, notEmpty)) removal.folders.push(dirname(folder));
  }
  return removal;
}

/** The files of `folder` whose names interceptThisTest gives (absolute); none when there is no such folder. */
function trajectoryFiles(folder: string): string[] {
  return entries(folder, 'files')
    .filter(isTrajectoryFileName)
    .map((name) => join(folder, name));
}

/** The names of the regular files, or of the folders, in `folder`; none when there is no such folder. */
function entries(folder: string, kind: 'files' | 'folders'): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => (kind === 'files' ? entry.isFile() : entry.isDirectory()))
      .map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
