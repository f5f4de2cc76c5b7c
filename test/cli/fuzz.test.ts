import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';
import { LEAKED_SECRET } from '../fuzz/leakyAgent.js';

describe('legate fuzz', () => {
  it('fuzzes the tools and agents of the config, prints the table, and exits 0 with no findings', async () => {
    const io = captureIo();
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '40', '--seed', '9'], io)).toBe(0);
    const text = io.text();
    expect(text).toMatch(/^target\s+kind\s+cases\s+failures\s+cases\/s$/m);
    expect(text).toMatch(/^send_payment\s+tool\s+50\s+0\s+[\d,]+$/m);
    expect(text).toMatch(/^assistant\s+agent\s+8\s+0\s+[\d,]+$/m);
    expect(text).toMatch(/\d+ targets, \d+ cases: no findings/);
  }, 60_000);

  it('exits 1 on a finding, with the seed, the path and the shrunk counterexample', async () => {
    const io = captureIo();
    expect(await main(['fuzz', 'test/support/brokenFuzzTargets.ts', '--runs', '300', '--seed', '2'], io)).toBe(1);
    const text = io.text();
    expect(text).toMatch(/^coercing\s+tool\s+\d+\s+1\s+/m);
    expect(text).toMatch(/^sound\s+tool\s+\d+\s+0\s+/m);
    expect(text).toContain(`✗ coercing: an input broken by wrong_type at argument 'count' was accepted`);
    expect(text).toMatch(/reproduce: seed 2, path [\d:]+/);
    expect(text).toContain('shrunk counterexample: {"input":{"count":');
  }, 60_000);

  it('says what it needs when given nothing to fuzz', async () => {
    const io = captureIo();
    expect(await main(['fuzz'], io)).toBe(2);
    expect(io.text()).toContain('give a module to fuzz');
  });
});

const tempDir = useTempDir();
const root = resolve('.');

/** A project whose config exports one leaky agent (see test/fuzz/leakyAgent.ts), with the secret declared as given. */
function leakyProject(name: string, declare: { secrets?: boolean; redactions?: boolean }): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\n` +
      `import { leakyAgent, SECRET_PATTERN } from '${root}/test/fuzz/leakyAgent.ts';\n` +
      `export default defineConfig({\n  agents: { leaky: leakyAgent(${JSON.stringify(name)}) },\n` +
      (declare.secrets === true ? `  secrets: [SECRET_PATTERN],\n` : '') +
      (declare.redactions === true ? `  redactions: [{ pattern: SECRET_PATTERN }],\n` : '') +
      `});\n`,
  );
  return dir;
}

describe('legate fuzz --out', () => {
  it.each([
    ['empty', () => ''],
    ['an existing file', (dir: string) => join(dir, 'legate.config.ts')],
    ['under a file', (dir: string) => join(dir, 'legate.config.ts', 'fuzz')],
  ])('refuses a folder that is %s in one line, exit 2, before fuzzing', async (_kind, out) => {
    const dir = leakyProject('leaky', {});
    const io = captureIo(dir);
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '5', '--seed', '1', '--out', out(dir)], io)).toBe(2);
    expect(io.stderr).toEqual([
      expect.stringMatching(
        new RegExp(
          '^legate fuzz: --out: findings cannot be written to .*|' +
            '^legate fuzz: --out: the folder for findings must be named',
        ),
      ),
    ]);
    expect(io.stdout).toEqual([]);
  });

  it('writes a finding of an agent named ../../escaped inside --out, resolved from the working folder', async () => {
    const dir = leakyProject('../../escaped', {});
    const io = captureIo(dir);
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '20', '--seed', '4', '--out', 'a/b'], io)).toBe(1);
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual([expect.stringMatching(/^escaped-[0-9a-f]{8}-\d+\.yaml$/)]);
    expect(readdirSync(dir).sort()).toEqual(['a', 'legate.config.ts']);
    expect(io.text()).toMatch(/written to a\/b\/escaped-[0-9a-f]{8}-\d+\.yaml/);
  }, 60_000);
});

describe("legate fuzz and the config's secrets", () => {
  it("applies the config's redactions to a finding, so it never holds a declared secret", async () => {
    const dir = leakyProject('leaky', { secrets: true, redactions: true });
    const io = captureIo(dir);
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '20', '--seed', '4', '--out', 'found'], io)).toBe(1);
    const [file] = readdirSync(join(dir, 'found'));
    const text = readFileSync(join(dir, 'found', file!), 'utf8');
    expect(text).toContain('api key [REDACTED]');
    expect(text).not.toContain(LEAKED_SECRET);
  }, 60_000);

  it('does not write a finding holding a declared secret with no redaction, and prints it to stderr', async () => {
    const dir = leakyProject('leaky', { secrets: true });
    const io = captureIo(dir);
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '20', '--seed', '4', '--out', 'found'], io)).toBe(1);
    expect(existsSync(join(dir, 'found')) ? readdirSync(join(dir, 'found')) : []).toEqual([]);
    expect(io.stderr).toEqual([
      expect.stringMatching(
        new RegExp(
          '^legate fuzz: ✗ leaky: the finding was not written: .*holds declared secret #1, so it was not saved.*; ' +
            'reproduce with seed 4, path [\\d:]+; shrunk counterexample: \\{"input":',
        ),
      ),
    ]);
    expect(io.text()).not.toContain(LEAKED_SECRET);
  }, 60_000);

  it("applies the secrets of the project's config to the agents of another module", async () => {
    const dir = leakyProject('leaky', { secrets: true, redactions: true });
    writeFileSync(
      join(dir, 'agents.ts'),
      `import { leakyAgent } from '${root}/test/fuzz/leakyAgent.ts';\nexport const agents = { other: ` +
        `leakyAgent('other') };\n`,
    );
    const io = captureIo(dir);
    expect(await main(['fuzz', 'agents.ts', '--runs', '20', '--seed', '4', '--out', 'found'], io)).toBe(1);
    const text = readFileSync(join(dir, 'found', 'other-4.yaml'), 'utf8');
    expect(text).toContain('api key [REDACTED]');
  }, 60_000);

  it("finds the project's config from a folder below it, as legate replay does", async () => {
    const dir = leakyProject('leaky', { secrets: true, redactions: true });
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src', 'agents.ts'),
      `import { leakyAgent } from '${root}/test/fuzz/leakyAgent.ts';\nexport const agents = { other: ` +
        `leakyAgent('other') };\n`,
    );
    const io = captureIo(join(dir, 'src'));
    expect(await main(['fuzz', 'agents.ts', '--runs', '20', '--seed', '4', '--out', 'found'], io)).toBe(1);
    const text = readFileSync(join(dir, 'src', 'found', 'other-4.yaml'), 'utf8');
    expect(text).toContain('api key [REDACTED]');
  }, 60_000);
});

describe('legate fuzz when a target cannot be fuzzed', () => {
  it('reports that target in one line, keeps the findings of the others, and exits 1', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'agents.ts'),
      `import { leakyAgent } from '${root}/test/fuzz/leakyAgent.ts';\n` +
        `let built = 0;\nconst leaky = leakyAgent('leaky');\n` +
        `export const agents = { leaky, flaky: (transport) => { if (++built > 1) throw new Error('the flaky ` +
        `factory gave up'); return leaky(transport); } };\n`,
    );
    const io = captureIo(dir);
    expect(await main(['fuzz', 'agents.ts', '--runs', '20', '--seed', '4', '--out', 'found'], io)).toBe(1);
    expect(io.stderr).toEqual([
      'legate fuzz: ✗ flaky: could not be fuzzed: Error: the flaky factory gave up (set LEGATE_DEBUG=1 for the ' +
        'stack trace)',
    ]);
    expect(io.stdout.join('\n')).toMatch(/✗ leaky: 'lookup' was attempted/);
    expect(readdirSync(join(dir, 'found'))).toEqual(['leaky-4.yaml']);
  }, 60_000);
});
