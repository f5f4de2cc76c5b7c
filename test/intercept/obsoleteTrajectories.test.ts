import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findObsoleteTrajectories,
  type ObsoleteTrajectory,
  type Removal,
  removeObsoleteTrajectories,
  type TestFileOutcome,
} from '../../src/intercept/obsoleteTrajectories.js';
import { isTrajectoryFileName } from '../../src/intercept/testTrajectoryFile.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** Writes each file (a path ending in `/` is a folder) under `root`. */
function writeTree(root: string, paths: readonly string[]): void {
  for (const path of paths) {
    if (path.endsWith('/')) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), 'x\n');
    }
  }
}

/** Every file and folder under `root`, relative to it, folders ending in `/`, sorted. */
function treeOf(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const path = relative(root, join(entry.parentPath, entry.name));
      return entry.isDirectory() ? `${path}/` : path;
    })
    .sort();
}

/** The obsolete files as `path (reason)`, relative to `root`. */
const shown = (root: string, obsolete: readonly ObsoleteTrajectory[]) =>
  obsolete.map(({ file, reason }) => `${relative(root, file)} (${reason})`);

describe('findObsoleteTrajectories', () => {
  it('judges the folder of a test file that ran whole: the files no test kept; any other file is not legate’s', () => {
    const root = tempDir();
    const folder = 'test/__trajectories__/agent.test.ts';
    writeTree(root, [
      'test/agent.test.ts',
      `${folder}/kept.yaml`,
      `${folder}/failed-test.yaml`,
      `${folder}/renamed.yaml`,
      `${folder}/answers-sf.0123abcd.yaml`,
      // Not names interceptThisTest gives: a person's, a temporary file of an atomic write, a sub-folder's file.
      `${folder}/Notes.yaml`,
      `${folder}/README.md`,
      `${folder}/.renamed.yaml.legate-tmp-12-abcd0123`,
      `${folder}/old/renamed.yaml`,
    ]);
    const kept = [`${folder}/kept.yaml`, `${folder}/failed-test.yaml`].map((file) => join(root, file));
    const outcome = { testFile: join(root, 'test/agent.test.ts'), whole: true, kept };
    expect(shown(root, findObsoleteTrajectories([outcome]))).toEqual([
      `${folder}/answers-sf.0123abcd.yaml (unclaimed)`,
      `${folder}/renamed.yaml (unclaimed)`,
    ]);
    // Not whole (a test skipped, todo, or left out by .only): nothing in its folder is judged.
    expect(findObsoleteTrajectories([{ ...outcome, whole: false }])).toEqual([]);
  });

  it('judges a test file run by several projects by all its runs: whole in each, a file kept by any', () => {
    const root = tempDir();
    const folder = join(root, 'test/__trajectories__/agent.test.ts');
    writeTree(root, [
      'test/agent.test.ts',
      'test/__trajectories__/agent.test.ts/a.yaml',
      'test/__trajectories__/agent.test.ts/b.yaml',
    ]);
    const testFile = join(root, 'test/agent.test.ts');
    const keptBy = (file: string, whole = true): TestFileOutcome => ({ testFile, whole, kept: [join(folder, file)] });
    expect(findObsoleteTrajectories([keptBy('a.yaml'), keptBy('b.yaml')])).toEqual([]);
    expect(shown(root, findObsoleteTrajectories([keptBy('a.yaml'), keptBy('a.yaml')]))).toEqual([
      'test/__trajectories__/agent.test.ts/b.yaml (unclaimed)',
    ]);
    expect(findObsoleteTrajectories([keptBy('a.yaml'), keptBy('a.yaml', false)])).toEqual([]);
  });

  it('finds the folder of a test file that is gone, beside a test file of the run, whole or not', () => {
    const root = tempDir();
    writeTree(root, [
      'test/agent.test.ts',
      'test/__trajectories__/gone.test.ts/answers.yaml',
      'test/__trajectories__/gone.test.ts/asks.yaml',
      'test/__trajectories__/gone.test.ts/NOTES.md',
      // Something of that name is there: a folder, not a test file, but not gone.
      'test/now-a-folder.test.ts/',
      'test/__trajectories__/now-a-folder.test.ts/answers.yaml',
      // Beside no test file of the run: not read.
      'lib/__trajectories__/gone.test.ts/answers.yaml',
    ]);
    const outcome = { testFile: join(root, 'test/agent.test.ts'), whole: false, kept: [] };
    const obsolete = findObsoleteTrajectories([outcome]);
    expect(shown(root, obsolete)).toEqual([
      'test/__trajectories__/gone.test.ts/answers.yaml (gone)',
      'test/__trajectories__/gone.test.ts/asks.yaml (gone)',
    ]);
    expect(obsolete[0]!.testFile).toBe(join(root, 'test/gone.test.ts'));
  });

  it('finds nothing where __trajectories__ is missing or not a folder', () => {
    const root = tempDir();
    writeTree(root, ['test/agent.test.ts', 'test/__trajectories__']);
    const outcome = { testFile: join(root, 'test/agent.test.ts'), whole: true, kept: [] };
    expect(findObsoleteTrajectories([outcome])).toEqual([]);
    expect(findObsoleteTrajectories([{ ...outcome, testFile: join(root, 'nowhere/agent.test.ts') }])).toEqual([]);
  });
});

describe('removeObsoleteTrajectories', () => {
  it('removes the files, then the folders they leave empty, and nothing that still holds another file', () => {
    const root = tempDir();
    writeTree(root, [
      'test/__trajectories__/gone.test.ts/answers.yaml',
      'test/__trajectories__/agent.test.ts/renamed.yaml',
      'test/__trajectories__/agent.test.ts/README.md',
      'test/__trajectories__/only.test.ts/renamed.yaml',
      'lib/__trajectories__/gone.test.ts/answers.yaml',
    ]);
    const obsolete = (file: string, reason: ObsoleteTrajectory['reason'] = 'unclaimed'): ObsoleteTrajectory => ({
      file: join(root, file),
      testFile: join(root, 'test', file.split('/')[2]!),
      reason,
    });
    const first = removeObsoleteTrajectories([
      obsolete('test/__trajectories__/gone.test.ts/answers.yaml', 'gone'),
      obsolete('test/__trajectories__/agent.test.ts/renamed.yaml'),
      // Gone already (removed by another run): passed over.
      obsolete('test/__trajectories__/agent.test.ts/twice.yaml'),
    ]);
    const relativeTo = ({ files, folders, failures }: Removal) => ({
      files: files.map((file) => relative(root, file)),
      folders: folders.map((folder) => relative(root, folder)),
      failures,
    });
    expect(relativeTo(first)).toEqual({
      files: ['test/__trajectories__/gone.test.ts/answers.yaml', 'test/__trajectories__/agent.test.ts/renamed.yaml'],
      folders: ['test/__trajectories__/gone.test.ts'],
      failures: [],
    });
    expect(treeOf(root)).toEqual([
      'lib/',
      'lib/__trajectories__/',
      'lib/__trajectories__/gone.test.ts/',
      'lib/__trajectories__/gone.test.ts/answers.yaml',
      'test/',
      'test/__trajectories__/',
      'test/__trajectories__/agent.test.ts/',
      'test/__trajectories__/agent.test.ts/README.md',
      'test/__trajectories__/only.test.ts/',
      'test/__trajectories__/only.test.ts/renamed.yaml',
    ]);
    rmSync(join(root, 'test/__trajectories__/agent.test.ts'), { recursive: true });
    // The last test file's folder goes, and __trajectories__ with it once empty.
    const last = removeObsoleteTrajectories([obsolete('test/__trajectories__/only.test.ts/renamed.yaml')]);
    expect(relativeTo(last).folders).toEqual(['test/__trajectories__/only.test.ts', 'test/__trajectories__']);
    expect(existsSync(join(root, 'test/__trajectories__'))).toBe(false);
  });

  it('reports what it could not remove, and goes on', () => {
    const root = tempDir();
    writeTree(root, ['test/__trajectories__/a.test.ts/a.yaml/', 'test/__trajectories__/a.test.ts/b.yaml']);
    const at = (file: string): ObsoleteTrajectory => ({ file: join(root, file), testFile: root, reason: 'gone' });
    const removal = removeObsoleteTrajectories([
      at('test/__trajectories__/a.test.ts/a.yaml'),
      at('test/__trajectories__/a.test.ts/b.yaml'),
    ]);
    expect(removal.files).toEqual([join(root, 'test/__trajectories__/a.test.ts/b.yaml')]);
    expect(removal.failures).toEqual([
      { path: join(root, 'test/__trajectories__/a.test.ts/a.yaml'), message: expect.stringMatching(/EISDIR|EPERM/) },
    ]);
    expect(removal.folders).toEqual([]);
  });
});

describe('obsolete trajectories (property)', () => {
  const TEST_FILES = ['test/a.test.ts', 'test/b.test.ts', 'test/sub/c.test.ts', 'test/sub/d.test.ts'];
  const NAMES = ['x.yaml', 'y.yaml', 'z.0123abcd.yaml', 'Z.yaml', 'notes.md', 'x.yml'];
  const world = fc.record({
    // Which test files exist, and which of those ran (each one to three times: projects), whole or not.
    present: fc.subarray(TEST_FILES),
    runs: fc.array(fc.record({ of: fc.constantFrom(...TEST_FILES), whole: fc.boolean(), kept: fc.subarray(NAMES) }), {
      maxLength: 6,
    }),
    // The files in each test file's folder (of one that exists or not).
    folders: fc.array(fc.tuple(fc.constantFrom(...TEST_FILES), fc.subarray(NAMES)), { maxLength: 6 }),
  });
  const folderOf = (testFile: string) => join(dirname(testFile), '__trajectories__', testFile.split('/').at(-1)!);

  it('reports exactly the legate files no whole run kept or whose test file is gone, and removes only those', () => {
    fc.assert(
      fc.property(world, ({ present, runs, folders }) => {
        const root = mkdtempSync(join(tmpdir(), 'legate-obsolete-'));
        try {
          const files = folders.flatMap(([testFile, names]) => names.map((name) => join(folderOf(testFile), name)));
          writeTree(root, [...present, ...files]);
          const ran = runs.filter(({ of }) => present.includes(of));
          const outcomes = ran.map(({ of, whole, kept }) => ({
            testFile: join(root, of),
            whole,
            kept: kept.map((name) => join(root, folderOf(of), name)),
          }));
          const before = treeOf(root);
          const found = findObsoleteTrajectories(outcomes).map(({ file }) => relative(root, file));
          // The spec, on the tree as written: a file interceptThisTest could name, in the folder of a test file that
          // ran whole in every run and kept by none, or of a test file gone beside one that ran.
          const expected = [...new Set(files)].filter((file) => {
            const name = file.split('/').at(-1)!;
            if (!isTrajectoryFileName(name)) return false;
            const testFile = TEST_FILES.find((candidate) => folderOf(candidate) === dirname(file))!;
            if (!present.includes(testFile)) return ran.some(({ of }) => dirname(of) === dirname(testFile));
            const itsRuns = ran.filter(({ of }) => of === testFile);
            return itsRuns.length > 0 && itsRuns.every(({ whole, kept }) => whole && !kept.includes(name));
          });
          expect(found).toEqual(expected.sort());
          removeObsoleteTrajectories(findObsoleteTrajectories(outcomes));
          const after = treeOf(root);
          // What is left: everything but those files and the folders they left empty.
          const removed = before.filter((path) => !after.includes(path));
          for (const path of removed) {
            if (!path.endsWith('/')) expect(found).toContain(path);
            // A folder goes only with all it held.
            else
              expect(before.filter((other) => other.startsWith(path)).every((other) => removed.includes(other))).toBe(
                true,
              );
          }
          for (const file of found) expect(after).not.toContain(file);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
