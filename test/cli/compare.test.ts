import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import type { ModelResponse } from '../../src/messages/types.js';
import { captureIo } from '../support/captureIo.js';
import { corpusProject, liveAt } from '../support/corpusProject.js';
import { corpusStandIn, type ServedTurn, upgradedModel } from '../support/corpusStandIn.js';
import { elementsOf, select } from '../support/htmlElements.js';
import { SHIPPED } from '../support/corpusProject.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 35, "A model upgrade's impact": `legate compare <old> <new>` after `legate rerecord`, on the shipped corpus
// recorded again against a stand-in of the model over HTTP (the Anthropic SDK's transport, as a live recording).

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

/** The shipped corpus in `dir`/t, recorded again into `dir`/new against a stand-in answering as `answer` does. */
async function rerecordCorpus(dir: string, answer?: (served: ServedTurn) => ModelResponse): Promise<void> {
  corpusProject(dir);
  const standIn = await corpusStandIn(SHIPPED, answer);
  liveAt(standIn.url);
  try {
    const io = captureIo(dir);
    expect(await main(['rerecord', 't', '--out', 'new'], io), io.text()).toBe(0);
    expect(io.stdout.at(-1)).toBe(`recorded ${SHIPPED.length} files again into new`);
  } finally {
    await standIn.close();
  }
}

/** The table's rows that are not the same: their file and status. */
function notSame(stdout: string[]): string[] {
  const header = stdout.findIndex((line) => line.startsWith('file '));
  const end = stdout.indexOf('', header);
  const rows = stdout.slice(header + 1, end);
  return rows.filter((row) => !/^\S+\s+same\s/.test(row)).map((row) => row.split(/\s+/).slice(0, 2).join(' '));
}

describe('legate rerecord, then legate compare, on the shipped corpus', () => {
  it('a model that answers alike: every file the same, exit 0', async () => {
    const dir = tempDir();
    await rerecordCorpus(dir);
    const io = captureIo(dir);
    expect(await main(['compare', 't', 'new'], io), io.text()).toBe(0);
    expect(io.stdout[0]).toMatch(
      /^file\s+status\s+tools\s+decisions\s+stop reason\s+final text\s+handoffs\s+tokens in\s+tokens out$/,
    );
    expect(notSame(io.stdout)).toEqual([]);
    expect(io.stdout.at(-1)).toBe(
      `${SHIPPED.length} files: ${SHIPPED.length} same, 0 changed (0 with a decision changed, 0 with a stop reason ` +
        'changed); tokens in 24,774, out 7,700',
    );
    expect(io.stderr).toEqual([]);
  }, 120_000);

  it('a model that answers one call differently and calls another tool: exactly those two files, exit 1', async () => {
    const dir = tempDir();
    await rerecordCorpus(dir, upgradedModel);
    const io = captureIo(dir);
    expect(await main(['compare', 't', 'new'], io), io.text()).toBe(1);
    expect(notSame(io.stdout)).toEqual(['parallel-tool-calls.yaml changed', 'provenance-traced.yaml changed']);
    const row = (file: string) => io.stdout.find((line) => line.startsWith(`${file} `))!.split(/\s{2,}/);
    expect(row('parallel-tool-calls.yaml')).toEqual([
      'parallel-tool-calls.yaml',
      'changed',
      'changed at call 2',
      'same',
      'same',
      'same',
      'same',
      '658',
      '54',
    ]);
    expect(row('provenance-traced.yaml')).toEqual([
      'provenance-traced.yaml',
      'changed',
      'same',
      '1 now blocked',
      'same',
      'same',
      'same',
      '1,521',
      '141',
    ]);
    const details = io.stdout.slice(io.stdout.indexOf('parallel-tool-calls.yaml:'), -2);
    expect(details).toEqual([
      'parallel-tool-calls.yaml:',
      '  tools: call 2 is square_root, was divide',
      '',
      'provenance-traced.yaml:',
      '  send_payment (2nd call): now blocked (run → blocked by taint)',
    ]);
    expect(io.stdout.at(-1)).toBe(
      `${SHIPPED.length} files: ${SHIPPED.length - 2} same, 2 changed (1 with a decision changed, 0 with a stop ` +
        'reason changed); tokens in 24,774, out 7,700',
    );

    // The same as a page: a row per file, the two changed, the one whose decision changed gated.
    const html = captureIo(dir);
    expect(await main(['compare', 't', 'new', '--html', '--out', 'c.html'], html), html.text()).toBe(1);
    expect(html.stdout).toEqual([expect.stringMatching(/^wrote c\.html \(21 files: 19 same, 2 changed .*, \d+ KB\)$/)]);
    const rows = select(elementsOf(readFileSync(join(dir, 'c.html'), 'utf8')), 'tr').filter(
      (tr) => tr.attributes['data-file'] !== undefined,
    );
    expect(rows).toHaveLength(SHIPPED.length);
    const changed = rows.filter((tr) => tr.attributes['data-status'] !== 'same');
    expect(changed.map((tr) => [tr.attributes['data-file'], tr.attributes['data-gated']])).toEqual([
      ['parallel-tool-calls.yaml', undefined],
      ['provenance-traced.yaml', 'true'],
    ]);
  }, 120_000);
});

describe('legate compare', () => {
  /** Two folders, old/ and new/, of shipped files (new/ holding what `edit` makes of them). */
  function corpora(files: string[], edit: (name: string, text: string) => string | undefined = (_, t) => t): string {
    const dir = tempDir();
    for (const side of ['old', 'new']) mkdirSync(join(dir, side));
    for (const file of files) {
      const name = file.split('/').pop()!;
      copyFileSync(file, join(dir, 'old', name));
      const edited = edit(name, readFileSync(file, 'utf8'));
      if (edited !== undefined) writeFileSync(join(dir, 'new', name), edited);
    }
    return dir;
  }

  it('gates on a changed stop reason, and on a file in one corpus only', async () => {
    const dir = corpora(
      ['trajectories/refusal.yaml', 'trajectories/tool-loop.yaml', 'trajectories/zero-trust.yaml'],
      (name, text) =>
        name === 'zero-trust.yaml' ? undefined : text.replace(/^ {2}stopReason: refusal$/m, '  stopReason: end_turn'),
    );
    mkdirSync(join(dir, 'new', 'sub'));
    copyFileSync('trajectories/tool-failure.yaml', join(dir, 'new', 'sub', 'tool-failure.yaml'));
    const io = captureIo(dir);
    expect(await main(['compare', 'old', 'new'], io), io.text()).toBe(1);
    expect(notSame(io.stdout).sort()).toEqual([
      'refusal.yaml changed',
      'sub/tool-failure.yaml added',
      'zero-trust.yaml removed',
    ]);
    expect(io.stdout).toContain('  stop reason: refusal → end_turn');
    expect(io.stdout).toContain('  only in the new corpus');
    expect(io.stdout).toContain('  only in the old corpus');
    expect(io.stdout.at(-1)).toMatch(
      new RegExp(
        '^4 files: 1 same, 1 changed \\(0 with a decision changed, 1 with a stop reason changed\\), ' +
          '1 only in the new, 1 only in the old;',
      ),
    );
  });

  it('compares two files; a changed final text alone does not gate', async () => {
    const dir = corpora(['trajectories/tool-loop.yaml'], (_, text) => text.replace('has shipped.', 'is on its way.'));
    const io = captureIo(dir);
    expect(await main(['compare', 'old/tool-loop.yaml', 'new/tool-loop.yaml'], io), io.text()).toBe(0);
    expect(notSame(io.stdout)).toEqual(['tool-loop.yaml changed']);
    expect(io.stdout).toContain('  final text: …" a tea tin) has shipped." → …" a tea tin) is on its way."');
  });

  it('escapes what the files say before it reaches the terminal', async () => {
    const dir = corpora(['trajectories/refusal.yaml'], (_, text) =>
      text.replace(/^ {2}stopReason: refusal$/m, '  stopReason: "end\\e[2J_turn"'),
    );
    renameSync(join(dir, 'old', 'refusal.yaml'), join(dir, 'old', 'a\u202ez.yaml'));
    renameSync(join(dir, 'new', 'refusal.yaml'), join(dir, 'new', 'a\u202ez.yaml'));
    const io = captureIo(dir);
    expect(await main(['compare', 'old', 'new'], io), io.text()).toBe(1);
    expect(io.text()).not.toContain('\u001b');
    expect(io.text()).not.toContain('\u202e');
    expect(io.stdout).toContain('a\\u202ez.yaml:');
    expect(io.stdout).toContain('  stop reason: refusal → end\\x1b[2J_turn');
  });

  it('refuses what it cannot compare: one line each, exit 2; the files it can read are still compared', async () => {
    const dir = corpora(['trajectories/tool-loop.yaml', 'trajectories/refusal.yaml'], (name, text) =>
      name === 'refusal.yaml' ? 'version: [1\n' : text,
    );
    mkdirSync(join(dir, 'empty'));
    for (const [argv, says] of [
      [['old'], /^legate compare: give the old and the new corpus, two folders or two files/],
      [['old', 'gone'], /^legate compare: gone: does not exist; check the path/],
      [['old', 'old/tool-loop.yaml'], /^legate compare: give two folders or two files; old is a folder and/],
      [['old', 'empty'], /^legate compare: no trajectory files \(\*\.yaml\) under empty; give a folder that holds/],
      [['old', 'new', '--out', 'c.html'], /^legate compare: --out names the HTML page; add --html/],
    ] as const) {
      const io = captureIo(dir);
      expect(await main(['compare', ...argv], io), io.text()).toBe(2);
      expect(io.stderr).toEqual([expect.stringMatching(says)]);
      expect(io.stdout).toEqual([]);
    }
    const io = captureIo(dir);
    expect(await main(['compare', 'old', 'new'], io)).toBe(2);
    expect(io.stderr).toEqual([expect.stringMatching(/^new\/refusal\.yaml:2:1: /)]);
    expect(notSame(io.stdout)).toEqual([]);
    expect(io.stdout.at(-1)).toMatch(/^1 file: 1 same, 0 changed/);
  });
});
