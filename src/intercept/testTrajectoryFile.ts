import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** The longest readable part of a file name, in characters: with the digest, well under any file system's 255. */
const READABLE_LENGTH = 80;
/** Names Windows reserves whatever follows them (`con.yaml` and `con.x.yaml` alike). */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;
/** A title kept as it is: lower-case ASCII words, one space between them. */
const PLAIN_TITLE = /^[a-z0-9]+( [a-z0-9]+)*$/;
/** Every name trajectoryFileName makes, with `.yaml`: the only files of a test file's folder legate judges. */
const TRAJECTORY_FILE_NAME = /^[a-z0-9_-]+(\.[0-9a-f]{8})?\.yaml$/;
/** The folder beside the test files that holds theirs, one folder per test file. */
const TRAJECTORIES = '__trajectories__';

/**
 * Where the trajectory of a vitest test lives, the way snapshots are kept beside their test:
 * `<folder of the test file>/__trajectories__/<test file name>/<file name of the titles>.yaml`.
 */
export function testTrajectoryFile(testFile: string, titles: readonly string[]): string {
  return join(testTrajectoryFolder(testFile), `${trajectoryFileName(titles)}.yaml`);
}

/** The folder of a test file's trajectories: `<folder of the test file>/__trajectories__/<test file name>`. */
export function testTrajectoryFolder(testFile: string): string {
  return join(trajectoriesFolder(dirname(testFile)), basename(testFile));
}

/** The `__trajectories__` folder of the test files of `folder`. */
export function trajectoriesFolder(folder: string): string {
  return join(folder, TRAJECTORIES);
}

/** Whether `name` is one testTrajectoryFile gives a file (so a file of that name is legate's to judge). */
export function isTrajectoryFileName(name: string): boolean {
  return TRAJECTORY_FILE_NAME.test(name);
}

/**
 * The file name (without `.yaml`) of a test's titles: its describe blocks' names, then its own.
 * - Titles that are all plain (lower-case ASCII letters and digits, single spaces between words) are
 *   kept as they are, spaces written `-`, titles joined by `__`: `weather agent > answers sf` is
 *   `weather-agent__answers-sf`. This mapping can be undone, so distinct plain titles never share a name.
 * - Any other titles (a capital, punctuation, other scripts, an empty title, more than 80 characters,
 *   a name Windows reserves) are written the same way with every run of other characters as one `-`,
 *   cut at 80 characters, then `.` and the first 8 hex digits of the SHA-256 of the titles (as a JSON
 *   array): `Answers 'SF?'` is `answers-sf.` + 8 hex digits. The digest tells such names apart; the
 *   dot keeps them apart from plain ones, which have none.
 * Every name is lower-case ASCII letters, digits, `-`, `_` and at most one `.`, so it is a safe file
 * name on every common file system, case-insensitive ones included, and never a path.
 */
export function trajectoryFileName(titles: readonly string[]): string {
  const plain = titles.join('__').replaceAll(' ', '-');
  const keptAsIs = titles.length > 0 && titles.every((title) => PLAIN_TITLE.test(title));
  if (keptAsIs && plain.length <= READABLE_LENGTH && !RESERVED.test(plain)) return plain;
  const readable =
    titles
      .map((title) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-'))
      .join('__')
      .slice(0, READABLE_LENGTH)
      .replace(/^[-_]+|[-_]+$/g, '') || 'unnamed';
  const digest = createHash('sha256').update(JSON.stringify(titles)).digest('hex').slice(0, 8);
  return `${RESERVED.test(readable) ? `_${readable}` : readable}.${digest}`;
}
