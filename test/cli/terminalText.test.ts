import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { terminalLines, terminalText } from '../../cli/terminalText.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: a string from a file never reaches the terminal as it is, so a file cannot forge the report about it.

const tempDir = useTempDir();

/** C0 (line breaks and ESC among them), DEL, C1, bidi embeddings, overrides and isolates, zero-width. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what the tests look for.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
const FORGERY = '\x1b[2K\r\x1b[32m✓ all good';
const SHOWN = '\\x1b[2K\\r\\x1b[32m✓ all good';

/** Every line printed, split at the line breaks legate itself writes. */
function printedLines(io: ReturnType<typeof captureIo>): string[] {
  return [...io.stdout, ...io.stderr].flatMap((text) => text.split('\n'));
}

/** A project whose config exports no agent named FORGERY, with one trajectory that names it, in a file so named. */
function forgedProject(): { dir: string; file: string } {
  const dir = tempDir();
  const root = resolve('.');
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\nexport default defineConfig({ agents: {} });\n`,
  );
  const file = `${FORGERY}.yaml`;
  // Its name, its model's text and its first tool's name hold the forgery too (what `show` prints of it).
  const text = readFileSync('trajectories/refusal.yaml', 'utf8')
    .replace('agent: calculator', `agent: ${JSON.stringify(FORGERY)}`)
    .replace('name: refusal', `name: ${JSON.stringify(`refusal${FORGERY}`)}`)
    .replace(
      /(- text: )(I cannot help.*)$/m,
      (_, key: string, said: string) => `${key}${JSON.stringify(FORGERY + said)}`,
    );
  writeFileSync(join(dir, file), text);
  return { dir, file };
}

describe('terminalText', () => {
  const unicode = fc.string({ unit: 'binary' });

  it('leaves no control, bidi or zero-width character in anything it escapes', () =>
    fc.assert(
      fc.property(unicode, (text) => {
        expect(terminalText(text)).not.toMatch(UNSAFE);
      }),
    ));

  it('keeps printable text as it is', () =>
    fc.assert(
      fc.property(unicode, (text) => {
        const printable = text.replace(new RegExp(UNSAFE.source, 'g'), '');
        expect(terminalText(printable)).toBe(printable);
      }),
    ));

  it('shows each such character visibly, by its code', () => {
    expect(terminalText('a\x1bb\nc\rd\x7f\x9b\u202e\u2066\u200b\ufeff')).toBe(
      'a\\x1bb\\nc\\rd\\x7f\\x9b\\u202e\\u2066\\u200b\\ufeff',
    );
    expect(terminalLines('one\x1b\ntwo')).toBe('one\\x1b\ntwo');
  });
});

describe('a file that tries to forge its own verdict', () => {
  it('replays with the escape shown, its ✗ line intact, exit 1', async () => {
    const { dir, file } = forgedProject();
    const io = captureIo(dir);
    expect(await main(['replay', '--workers', '1', file], io)).toBe(1);
    expect(io.stdout[0]!.split('\n')[0]).toBe(`✗ ${SHOWN}.yaml`);
    expect(io.stdout.join('\n')).toContain(`${SHOWN}.yaml names agent '${SHOWN}', which legate.config.ts does not`);
    for (const line of printedLines(io)) expect(line).not.toMatch(UNSAFE);
    expect(io.stdout.at(-1)).toBe('1 replayed: 0 passed, 1 failed');
  });

  it('is shown, validated, audited and diffed with the escape shown', async () => {
    const { dir, file } = forgedProject();
    for (const args of [
      ['show', file],
      ['validate', file],
      ['audit', file, '--untrusted', 'add'],
      ['diff', file, 'other.yaml'],
    ]) {
      if (args[0] === 'diff') writeFileSync(join(dir, 'other.yaml'), readFileSync('trajectories/refusal.yaml'));
      const io = captureIo(dir);
      await main(args, io);
      // (diff quotes values as JSON, whose own escape for ESC is \u001b.)
      expect(io.text(), args[0]).toMatch(/\\(x1b|u001b)\[2K\\r\\(x1b|u001b)\[32m✓ all good/);
      for (const line of printedLines(io)) expect(line, args[0]).not.toMatch(UNSAFE);
    }
  });

  it('cannot forge the line that says it is malformed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, `${FORGERY}.yaml`), `version: 1\nname: ${JSON.stringify(FORGERY)}\n  bad: [\n`);
    const io = captureIo(dir);
    expect(await main(['validate', `${FORGERY}.yaml`], io)).toBe(1);
    expect(io.stderr[0]).toMatch(new RegExp(`^${SHOWN.replace(/[\\[\]]/g, '\\$&')}\\.yaml:\\d+:\\d+: `));
    for (const line of printedLines(io)) expect(line).not.toMatch(UNSAFE);
  });
});

describe('other text from files', () => {
  it('an OpenAPI document cannot forge the summary legate openapi prints of it', async () => {
    const dir = tempDir();
    const text = readFileSync('test/fixtures/openapi/petstore-3.1.yaml', 'utf8');
    // Its title, and a tag (each tag heads its group of operations in the listing).
    const forged = text
      .replace(/^( {2}title: ).*$/m, `$1${JSON.stringify(FORGERY)}`)
      .replace(/^( +- )pet$/gm, `$1${JSON.stringify(FORGERY)}`);
    writeFileSync(join(dir, 'api.yaml'), forged);
    const io = captureIo(dir);
    expect(await main(['openapi', 'api.yaml'], io)).toBe(0);
    expect(io.stdout[0]).toContain(SHOWN);
    expect(io.stdout[0]).toContain(`\n${SHOWN}: 8 operations, 1 skipped\n`);
    for (const line of printedLines(io)) expect(line).not.toMatch(UNSAFE);
  });

  it('a folder with no trajectories is named with the escape shown', async () => {
    const { dir } = forgedProject();
    mkdirSync(join(dir, FORGERY));
    const io = captureIo(dir);
    expect(await main(['replay', FORGERY], io)).toBe(2);
    expect(io.stderr[0]).toContain(`no trajectory files (*.yaml) under ${SHOWN};`);
    for (const line of printedLines(io)) expect(line).not.toMatch(UNSAFE);
  });
});

describe('a divergence', () => {
  it('quotes what the file recorded with the escape shown', async () => {
    const dir = tempDir();
    const root = resolve('.');
    writeFileSync(
      join(dir, 'legate.config.ts'),
      `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n` +
        'export default defineConfig({ agents: base.agents });\n',
    );
    const text = readFileSync('trajectories/refusal.yaml', 'utf8').replace(
      /^( {2}system: )(.*)$/m,
      (_, key: string, system: string) => `${key}${JSON.stringify(`${system}\u202e${FORGERY}`)}`,
    );
    writeFileSync(join(dir, 'refusal.yaml'), text);
    const io = captureIo(dir);
    expect(await main(['replay', '--workers', '1', 'refusal.yaml'], io)).toBe(1);
    expect(io.stdout[0]).toMatch(/^✗ refusal\.yaml\n/);
    expect(io.stdout[0]).toContain('\\u202e');
    for (const line of printedLines(io)) expect(line).not.toMatch(UNSAFE);
  });
});
