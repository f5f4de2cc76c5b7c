import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { elementsOf, inside, select } from '../support/htmlElements.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 19: `legate replay --reporter html --output f` (also `--report html`) writes the page with each file's verdict.

const tempDir = useTempDir();
const root = resolve('.');
const CHANGED_RESULT = 'failed with RangeError (edited)';

/** A project: one file that passes, one whose recorded tool result was edited (it diverges), one not valid YAML. */
function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'));
  copyFileSync('trajectories/refusal.yaml', join(dir, 't', 'a-pass.yaml'));
  const recorded = readFileSync('trajectories/tool-failure.yaml', 'utf8');
  const diverged = recorded.replace(
    "content: Tool 'square_root' failed with RangeError.",
    `content: ${CHANGED_RESULT}`,
  );
  expect(diverged).not.toBe(recorded);
  writeFileSync(join(dir, 't', 'b-diverges.yaml'), diverged);
  writeFileSync(join(dir, 't', 'c-invalid.yaml'), 'version: [1\n');
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n` +
      `export default defineConfig({ agents: base.agents });\n`,
  );
  return dir;
}

function verdicts(html: string): Record<string, string> {
  return Object.fromEntries(
    select(elementsOf(html), 'tr', { 'data-file': undefined }).map((row) => [
      row.attributes['data-file']!,
      row.attributes['data-verdict']!,
    ]),
  );
}

describe('legate replay --reporter html', () => {
  it.each([['--reporter'], ['--report']])(
    '%s html: every verdict in the index, the divergence at its turn with both values; exit code unchanged',
    async (option) => {
      const dir = project();
      const io = captureIo(dir);
      expect(
        await main(['replay', 't', '--workers', '1', option, 'html', '--output', 'replay.html'], io),
        io.text(),
      ).toBe(1);
      const html = readFileSync(join(dir, 'replay.html'), 'utf8');
      expect(verdicts(html)).toEqual({
        't/a-pass.yaml': 'passed',
        't/b-diverges.yaml': 'diverged',
        't/c-invalid.yaml': 'error',
      });
      const elements = elementsOf(html);
      const section = select(elements, 'section', { 'data-file': 't/b-diverges.yaml' })[0]!;
      const marks = select(inside(elements, section), 'div', { class: 'divergence' });
      expect(marks).toHaveLength(1);
      const mark = marks[0]!;
      expect(Number(mark.attributes['data-turn'])).toBeGreaterThan(0);
      expect(mark.attributes['data-path']).toMatch(/content/);
      const [expected] = select(inside(elements, mark), 'pre', { class: 'expected' });
      const [actual] = select(inside(elements, mark), 'pre', { class: 'actual' });
      expect(expected!.text).toContain(CHANGED_RESULT);
      expect(actual!.text).toContain("Tool 'square_root' failed with RangeError.");
      // The verdict lines still go to standard output.
      expect(io.stdout.join('\n')).toMatch(/✗ t\/b-diverges\.yaml/);
    },
  );

  it('--output - writes the page to standard output and the verdict lines to standard error', async () => {
    const dir = project();
    const io = captureIo(dir);
    expect(await main(['replay', 't/a-pass.yaml', '--reporter', 'html', '--output', '-'], io), io.text()).toBe(0);
    expect(io.stdout).toHaveLength(1);
    expect(verdicts(io.stdout[0]!)).toEqual({ 't/a-pass.yaml': 'passed' });
    expect(io.stderr.join('\n')).toMatch(/✓ t\/a-pass\.yaml/);
  });

  it.skipIf(process.platform !== 'linux')(
    'a page whose folder takes no file (/proc): every verdict line still, then one line, exit 2',
    async () => {
      const io = captureIo(project());
      expect(await main(['replay', 't', '--workers', '1', '--reporter', 'html', '--output', '/proc/r.html'], io)).toBe(
        2,
      );
      expect(io.stdout.join('\n')).toMatch(/✓ t\/a-pass\.yaml[\s\S]*✗ t\/b-diverges\.yaml/);
      expect(io.stderr).toEqual([
        expect.stringMatching(/^legate replay: --output \/proc\/r\.html: the report could not be written: .+\.$/),
      ]);
    },
  );

  it('a missing path gets a row with status missing', async () => {
    const dir = project();
    const io = captureIo(dir);
    expect(await main(['replay', 't/a-pass.yaml', 't/gone.yaml', '--reporter', 'html', '--output', 'r.html'], io)).toBe(
      2,
    );
    expect(verdicts(readFileSync(join(dir, 'r.html'), 'utf8'))).toEqual({
      't/gone.yaml': 'missing',
      't/a-pass.yaml': 'passed',
    });
  });

  it('refuses a bad --output, or --reporter and --report that differ, before replaying: one line, exit 2', async () => {
    const dir = project();
    for (const [argv, says] of [
      [
        ['--reporter', 'html', '--output', 'no/r.html'],
        /^legate replay: --output no\/r\.html: the folder no does not exist; create it first\.$/,
      ],
      [
        ['--reporter', 'html', '--output', 't'],
        /^legate replay: --output t is a folder; name a file in it, e\.g\. t\/replay\.html\.$/,
      ],
      [
        ['--reporter', 'html', '--report', 'junit', '--output', 'r'],
        /^legate replay: --report is another name for --reporter; give one, not both \('html' and 'junit'\)\.$/,
      ],
      [
        ['--report', 'pdf', '--output', 'r'],
        /^legate replay: --reporter must be one of junit, html, blob, but it was 'pdf'\.$/,
      ],
    ] as const) {
      const io = captureIo(dir);
      expect(await main(['replay', 't', ...argv], io)).toBe(2);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(says);
      expect(io.stdout).toEqual([]);
    }
    expect(readdirSync(dir).sort()).toEqual(['legate.config.ts', 't']);
  });

  it('for any text in a recorded result, the page says diverged and shows it (JSON) as expected value', async () => {
    const dir = project();
    const recorded = readFileSync('trajectories/tool-failure.yaml', 'utf8');
    await fc.assert(
      fc.asyncProperty(
        fc.string({
          minLength: 1,
          maxLength: 40,
          unit: fc.constantFrom('<', '>', '&', '"', "'", 'a', 'é', ' ', '/', 'x'),
        }),
        async (text) => {
          fc.pre(text.trim() !== '' && text.trim() === text);
          const edited = recorded.replace(
            "content: Tool 'square_root' failed with RangeError.",
            `content: ${JSON.stringify(text)}`,
          );
          writeFileSync(join(dir, 't', 'b-diverges.yaml'), edited);
          const io = captureIo(dir);
          expect(await main(['replay', 't/b-diverges.yaml', '--reporter', 'html', '--output', '-'], io)).toBe(1);
          const html = io.stdout[0]!;
          expect(verdicts(html)).toEqual({ 't/b-diverges.yaml': 'diverged' });
          const elements = elementsOf(html);
          const mark = select(elements, 'div', { class: 'divergence' })[0]!;
          expect(select(inside(elements, mark), 'pre', { class: 'expected' })[0]!.text).toContain(JSON.stringify(text));
        },
      ),
      { numRuns: 8 },
    );
  });
});
