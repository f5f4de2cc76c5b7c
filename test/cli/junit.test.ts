import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { junitXml, type ReportCase } from '../../cli/junit.js';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { parseStrictXml, type XmlElement } from '../support/strictXml.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');

/** A name with every character XML treats specially, and one it cannot hold at all. */
const NASTY = 'a<b&c"d\'e\u0001f';

/**
 * A project with four trajectories in t/: two that pass (one named with markup and a control
 * character), one that diverges (a recorded tool result changed), one that is not valid YAML.
 */
function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'));
  copyFileSync('trajectories/refusal.yaml', join(dir, 't', 'a-pass.yaml'));
  copyFileSync('trajectories/max-tokens.yaml', join(dir, 't', `${NASTY}.yaml`));
  const diverged = readFileSync('trajectories/tool-failure.yaml', 'utf8').replace(
    "content: Tool 'square_root' failed with RangeError.",
    'content: "failed with <RangeError> & \\"more\\" \\x01"',
  );
  writeFileSync(join(dir, 't', 'b-diverges.yaml'), diverged);
  writeFileSync(join(dir, 't', 'c-invalid.yaml'), 'version: [1\n');
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n` +
      `export default defineConfig({ agents: base.agents });\n`,
  );
  return dir;
}

const children = (element: XmlElement, name: string) => element.children.filter((child) => child.name === name);

describe('the strict XML reader the report is checked with', () => {
  it.each([
    ['a raw < in an attribute', '<a x="<"/>'],
    ['a bare &', '<a>&</a>'],
    ['a control character', '<a>\u0001</a>'],
    ['a reference to a control character', '<a>&#1;</a>'],
    ['a mismatched end tag', '<a></b>'],
    ['an unclosed element', '<a>'],
    ['a second root', '<a/><b/>'],
  ])('refuses %s', (_what, body) => {
    expect(() => parseStrictXml(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`)).toThrow();
  });
});

describe('legate replay --reporter junit', () => {
  it('writes one testcase per file: passes, a failure with the divergence, an error, in the JUnit shape', async () => {
    const dir = project();
    const io = captureIo(dir);
    expect(await main(['replay', 't', '--workers', '1', '--reporter', 'junit', '--output', 'report.xml'], io)).toBe(1);
    const suite = parseStrictXml(readFileSync(join(dir, 'report.xml'), 'utf8'));
    expect(suite.name).toBe('testsuite');
    expect(suite.attributes).toMatchObject({
      name: 'legate replay',
      tests: '4',
      failures: '1',
      errors: '1',
      skipped: '0',
    });
    expect(suite.attributes.time).toMatch(/^\d+\.\d{3}$/);
    const cases = children(suite, 'testcase');
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name])).toEqual([
      ['t', 'a-pass.yaml'],
      ['t', `${NASTY.replace('\u0001', '\\u0001')}.yaml`],
      ['t', 'b-diverges.yaml'],
      ['t', 'c-invalid.yaml'],
    ]);
    for (const c of cases) expect(c.attributes.time).toMatch(/^\d+\.\d{3}$/);
    expect(cases[0]!.children).toEqual([]);
    expect(cases[1]!.children).toEqual([]);
    const [failure] = children(cases[2]!, 'failure');
    expect(failure!.attributes.type).toBe('trajectory_divergence');
    expect(failure!.attributes.message).toContain('the request for turn 2 differs from the recording');
    // The whole message: the same words the verdict line gives, recorded text with its markup included.
    expect(failure!.text).toContain(
      'the request for turn 2 differs from the recording at messages[2].content[0].content',
    );
    expect(failure!.text).toContain('<RangeError> & \\"more\\"');
    const verdict = io.stdout.slice(io.stdout.indexOf('✗ t/b-diverges.yaml') + 1).join('\n');
    expect(verdict).toContain(failure!.text.split('\n')[0]!.trim());
    const [error] = children(cases[3]!, 'error');
    expect(error!.attributes).toMatchObject({ type: 'invalid_trajectory' });
    expect(error!.attributes.message).toMatch(/^t\/c-invalid\.yaml:2:1: this is not valid YAML/);
    expect(readdirSync(dir).filter((name) => name.includes('report'))).toEqual(['report.xml']); // no temporary left
  }, 60_000);

  it('marks the files not run after --bail as skipped', async () => {
    const dir = project();
    const io = captureIo(dir);
    expect(
      await main(['replay', 't', '--workers', '1', '--bail', '--reporter', 'junit', '--output', 'report.xml'], io),
    ).toBe(1);
    const suite = parseStrictXml(readFileSync(join(dir, 'report.xml'), 'utf8'));
    expect(suite.attributes).toMatchObject({ tests: '4', failures: '1', errors: '0', skipped: '1' });
    const last = children(suite, 'testcase').at(-1)!;
    expect(last.attributes.name).toBe('c-invalid.yaml');
    expect(children(last, 'skipped')).toHaveLength(1);
  }, 60_000);

  it('writes to standard output with --output -, the verdict lines going to standard error', async () => {
    const dir = project();
    const io = captureIo(dir);
    expect(await main(['replay', 't/a-pass.yaml', '--reporter', 'junit', '--output', '-'], io)).toBe(0);
    const suite = parseStrictXml(`${io.stdout.join('\n')}\n`);
    expect(suite.attributes).toMatchObject({ tests: '1', failures: '0', errors: '0' });
    expect(io.stderr[0]).toMatch(/^✓ t\/a-pass\.yaml/);
  }, 60_000);

  it.skipIf(process.platform !== 'linux')(
    'says in one line, exit 2, when the report cannot be written after the replay (/proc takes no new file)',
    async () => {
      const io = captureIo(project());
      expect(await main(['replay', 't/a-pass.yaml', '--reporter', 'junit', '--output', '/proc/legate.xml'], io)).toBe(
        2,
      );
      expect(io.stdout[0]).toMatch(/^✓ t\/a-pass\.yaml/);
      expect(io.stderr).toEqual([
        expect.stringMatching(/^legate replay: --output \/proc\/legate\.xml: the report could not be written: .+\.$/),
      ]);
    },
  );

  it.each([
    [['--reporter', 'tap', '--output', 'r.xml'], "--reporter must be one of junit, html, blob, but it was 'tap'."],
    [['--reporter', 'junit'], '--reporter junit needs --output <file> (or --output - for standard output).'],
    [
      ['--output', 'r.xml'],
      '--output needs a --reporter (junit, html, blob), e.g. --reporter junit --output report.xml.',
    ],
    [['--reporter', 'junit', '--output', 'no/such/r.xml'], '--output no/such/r.xml: the folder no/such does not exist'],
    [['--reporter', 'junit', '--output', 't'], '--output t is a folder; name a file in it, e.g. t/junit.xml.'],
  ])('refuses %j in one line, exit 2, before replaying anything', async (options, says) => {
    const io = captureIo(project());
    expect(await main(['replay', 't', ...options], io)).toBe(2);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toEqual([expect.stringContaining(`legate replay: ${says}`)]);
  });
});

describe('junitXml', () => {
  /** What a text must read as once parsed: each character XML cannot hold written as \uXXXX. */
  const readable = (text: string) =>
    [...text]
      .map((char) => {
        const code = char.codePointAt(0)!;
        const allowed =
          char === '\t' ||
          char === '\n' ||
          char === '\r' ||
          (code >= 0x20 && code <= 0xd7ff) ||
          (code >= 0xe000 && code <= 0xfffd) ||
          code >= 0x10000;
        return allowed ? char : `\\u${code.toString(16).padStart(4, '0')}`;
      })
      .join('');

  it('is well-formed XML for any file name and message, and reads back as them', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.constantFrom<ReportCase['outcome']>('passed', 'failed', 'error', 'skipped'),
        (name, message, outcome) => {
          const file = `folder/${name.replaceAll('/', '_')}.yaml`;
          const xml = junitXml([{ file, outcome, seconds: 0.25, code: 'trajectory_divergence', message }], 1);
          const suite = parseStrictXml(xml);
          const [testCase] = children(suite, 'testcase');
          expect(testCase!.attributes).toEqual({
            classname: 'folder',
            name: readable(`${name.replaceAll('/', '_')}.yaml`),
            time: '0.250',
          });
          if (outcome === 'failed' || outcome === 'error') {
            const [detail] = children(testCase!, outcome === 'failed' ? 'failure' : 'error');
            expect(detail!.text).toBe(readable(message));
            expect(detail!.attributes.message).toBe(readable(message.split('\n')[0]!));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
