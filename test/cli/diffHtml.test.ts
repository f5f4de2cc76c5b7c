import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { elementsOf, inside, select } from '../support/htmlElements.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 19: `legate diff --html <a> <b> [--out file]` writes the two runs side by side, the first difference marked.

const tempDir = useTempDir();

/** t/a.yaml (a shipped trajectory) and t/b.yaml (the same with its final text edited). */
function pair(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'));
  copyFileSync('trajectories/refusal.yaml', join(dir, 't', 'a.yaml'));
  const recorded = readFileSync('trajectories/refusal.yaml', 'utf8');
  const edited = recorded.replace(/stopReason: refusal/, 'stopReason: end_turn');
  expect(edited).not.toBe(recorded);
  writeFileSync(join(dir, 't', 'b.yaml'), edited);
  return dir;
}

describe('legate diff --html', () => {
  it('writes both files side by side with the first difference marked; exit 1 as the text diff', async () => {
    const dir = pair();
    const io = captureIo(dir);
    expect(await main(['diff', '--html', 't/a.yaml', 't/b.yaml', '--out', 'd.html'], io), io.text()).toBe(1);
    expect(io.stdout).toHaveLength(1);
    expect(io.stdout[0]).toMatch(/^wrote d\.html \(\d+ differences?, \d+ KB\)$/);
    const elements = elementsOf(readFileSync(join(dir, 'd.html'), 'utf8'));
    const files = select(elements, 'section', { class: 'trajectory' }).map((s) => s.attributes['data-file']);
    expect(files).toEqual(['t/a.yaml', 't/b.yaml']);
    const marks = select(elements, 'div', { class: 'divergence' });
    expect(marks.length).toBeGreaterThan(0);
    const mark = marks[0]!;
    expect(mark.attributes['data-path']).toMatch(/stopReason/);
    expect(select(inside(elements, mark), 'pre', { class: 'expected' })[0]!.text).toContain('refusal');
    expect(select(inside(elements, mark), 'pre', { class: 'actual' })[0]!.text).toContain('end_turn');
  });

  it('two files of the same run: no mark, exit 0; the default file is reports/legate-diff.html', async () => {
    const dir = pair();
    const io = captureIo(dir);
    expect(await main(['diff', '--html', 't/a.yaml', 't/a.yaml'], io), io.text()).toBe(0);
    expect(io.stdout[0]).toMatch(/^wrote reports\/legate-diff\.html \(the same run, \d+ KB\)$/);
    const elements = elementsOf(readFileSync(join(dir, 'reports/legate-diff.html'), 'utf8'));
    expect(select(elements, 'div', { class: 'divergence' })).toEqual([]);
  });

  it('--out - writes the page to standard output', async () => {
    const dir = pair();
    const io = captureIo(dir);
    expect(await main(['diff', '--html', '--out', '-', 't/a.yaml', 't/b.yaml'], io)).toBe(1);
    expect(io.stdout).toHaveLength(1);
    expect(io.stdout[0]).toMatch(/^<!DOCTYPE html>/i);
  });

  it('refuses --out without --html, or an --out it cannot write, before reading: one line, exit 2', async () => {
    const dir = pair();
    for (const [argv, says] of [
      [['--out', 'd.html'], /^legate diff: --out names the HTML page; add --html/],
      [
        ['--html', '--out', 'no/d.html'],
        /^legate diff: --out no\/d\.html: the folder no does not exist; create it first\.$/,
      ],
    ] as const) {
      const io = captureIo(dir);
      // A missing file too: had the files been read, it would have its own line.
      expect(await main(['diff', 't/a.yaml', 't/gone.yaml', ...argv], io)).toBe(2);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(says);
      expect(io.stdout).toEqual([]);
    }
    expect(readdirSync(dir)).toEqual(['t']);
  });
});
