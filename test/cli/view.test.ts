import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { elementsOf, select } from '../support/htmlElements.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 19: `legate view` writes the trajectories as one self-contained HTML page.

const tempDir = useTempDir();
const CORPUS = readdirSync('trajectories')
  .filter((file) => file.endsWith('.yaml'))
  .sort();

/** A folder `t/` holding copies of the given shipped trajectories. */
function folderWith(files: readonly string[]): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'), { recursive: true });
  for (const file of files) copyFileSync(join('trajectories', file), join(dir, 't', file));
  return dir;
}

function rows(html: string): Record<string, string> {
  return Object.fromEntries(
    select(elementsOf(html), 'tr', { 'data-file': undefined }).map((row) => [
      row.attributes['data-file']!,
      row.attributes['data-verdict']!,
    ]),
  );
}

describe('legate view', () => {
  it('writes one page with a row and a section per file, and says so in one line', async () => {
    const dir = folderWith(CORPUS);
    const io = captureIo(dir);
    expect(await main(['view', 't', '--out', 'report.html'], io), io.text()).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['report.html', 't']); // --out wins: no reports folder
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const size = Math.ceil(Buffer.byteLength(html) / 1024);
    expect(io.stdout).toEqual([`wrote report.html (${CORPUS.length} trajectories, ${size} KB)`]);
    expect(io.stderr).toEqual([]);
    const files = CORPUS.map((file) => `t/${file}`);
    expect(Object.keys(rows(html)).sort()).toEqual(files);
    const sections = select(elementsOf(html), 'section', { class: 'trajectory' }).map((s) => s.attributes['data-file']);
    expect(sections.sort()).toEqual(files);
    expect(size).toBeLessThan(300);
  });

  it('writes reports/legate-view.html when --out is not given, making the folder, and nothing beside it', async () => {
    const dir = folderWith(['refusal.yaml']);
    const io = captureIo(dir);
    expect(await main(['view', 't/refusal.yaml'], io), io.text()).toBe(0);
    expect(io.stdout[0]).toMatch(/^wrote reports\/legate-view\.html \(1 trajectory, \d+ KB\)$/);
    expect(rows(readFileSync(join(dir, 'reports/legate-view.html'), 'utf8'))).toEqual({ 't/refusal.yaml': 'recorded' });
    expect(readdirSync(dir).sort()).toEqual(['reports', 't']);
    // Again, into the folder now there.
    expect(await main(['view', 't/refusal.yaml'], captureIo(dir))).toBe(0);
    expect(readdirSync(join(dir, 'reports'))).toEqual(['legate-view.html']);
  });

  it('refuses a default it cannot write (reports is a file) before reading anything, naming --out', async () => {
    const dir = folderWith(['refusal.yaml']);
    writeFileSync(join(dir, 'reports'), '');
    const io = captureIo(dir);
    expect(await main(['view', 't', 't/gone.yaml'], io)).toBe(2);
    expect(io.stderr).toEqual([
      'legate view: reports/legate-view.html, the default for --out, cannot be written: reports is not a folder; ' +
        'name a file with --out.',
    ]);
    expect(io.stdout).toEqual([]);
  });

  it('writes the page to standard output with --out -, and nothing else there', async () => {
    const dir = folderWith(['refusal.yaml']);
    const io = captureIo(dir);
    expect(await main(['view', 't', '--out', '-'], io), io.text()).toBe(0);
    expect(io.stdout).toHaveLength(1);
    expect(io.stdout[0]).toMatch(/^<!DOCTYPE html>/i);
    expect(Object.keys(rows(io.stdout[0]!))).toEqual(['t/refusal.yaml']);
    expect(readdirSync(dir)).toEqual(['t']);
  });

  it('gives a file that is not a trajectory a row with status error and its problem, and still exits 0', async () => {
    const dir = folderWith(['refusal.yaml']);
    writeFileSync(join(dir, 't', 'broken.yaml'), 'version: 1\nname: [unclosed\n');
    const io = captureIo(dir);
    expect(await main(['view', 't', '--out', 'r.html'], io), io.text()).toBe(0);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(rows(html)).toEqual({ 't/broken.yaml': 'error', 't/refusal.yaml': 'recorded' });
    const row = select(elementsOf(html), 'tr', { 'data-file': 't/broken.yaml' })[0]!;
    expect(row.text).toContain('t/broken.yaml:');
  });

  it('gives a missing path a row with status missing, one line on stderr, and exit 2', async () => {
    const dir = folderWith(['refusal.yaml']);
    const io = captureIo(dir);
    expect(await main(['view', 't', 't/gone.yaml', '--out', 'r.html'], io)).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(/^legate view: t\/gone\.yaml: does not exist.*check the path/);
    expect(rows(readFileSync(join(dir, 'r.html'), 'utf8'))).toEqual({
      't/gone.yaml': 'missing',
      't/refusal.yaml': 'recorded',
    });
  });

  it('refuses an --out it cannot write before reading anything: one line, exit 2, no file', async () => {
    const dir = folderWith(['refusal.yaml']);
    mkdirSync(join(dir, 'folder'));
    for (const [out, says] of [
      [
        'no/such/page.html',
        /^legate view: --out no\/such\/page\.html: the folder no\/such does not exist; create it first\.$/,
      ],
      ['folder', /^legate view: --out folder is a folder; name a file in it, e\.g\. folder\/legate-view\.html\.$/],
      ['', /^legate view: --out needs a file name \(or - for standard output\)\.$/],
    ] as const) {
      const io = captureIo(dir);
      // A missing path too: had the files been looked at, it would have its own line.
      expect(await main(['view', 't', 't/gone.yaml', '--out', out], io)).toBe(2);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(says);
      expect(io.stdout).toEqual([]);
    }
    expect(readdirSync(dir).sort()).toEqual(['folder', 't']);
  });

  it.skipIf(process.platform !== 'linux')(
    'says in one line, exit 2, when its folder takes no file: not even the sections it sets aside (/proc)',
    async () => {
      const dir = folderWith(['refusal.yaml', 'zero-trust.yaml']);
      const io = captureIo(dir);
      expect(await main(['view', 't', '--out', '/proc/legate.html'], io)).toBe(2);
      expect(io.stderr).toEqual([
        expect.stringMatching(/^legate view: --out \/proc\/legate\.html: the page could not be written: .+\.$/),
      ]);
      expect(io.stdout).toEqual([]);
    },
  );

  it('asks for a path when given none: one line, exit 2', async () => {
    const io = captureIo(tempDir());
    expect(await main(['view'], io)).toBe(2);
    expect(io.stderr).toEqual([
      'legate view: give trajectory files or folders, e.g. legate view trajectories/ --out report.html',
    ]);
  });

  it('for any files of the corpus given, has exactly their rows, and counts them in its line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(CORPUS, { minLength: 1 }), async (chosen) => {
        const dir = folderWith(chosen);
        const io = captureIo(dir);
        const given = chosen.map((file) => `t/${file}`);
        expect(await main(['view', ...given, '--out', 'p.html'], io)).toBe(0);
        expect(Object.keys(rows(readFileSync(join(dir, 'p.html'), 'utf8'))).sort()).toEqual([...given].sort());
        const count = chosen.length === 1 ? '1 trajectory' : `${chosen.length} trajectories`;
        expect(io.stdout[0]).toContain(`(${count}, `);
      }),
      { numRuns: 8 },
    );
  });
});
