// Issue 12: a finding written by `legate fuzz` fails `legate replay` against the agent as it is and
// passes once the agent is fixed, through the command line a user runs.
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');

const config = (enforced: boolean) =>
  `import { defineConfig } from '${root}/src/index.ts';\n` +
  `import { mailer } from '${root}/test/fuzz/forgetfulMailer.ts';\n` +
  `export default defineConfig({ agents: { mailer: mailer(${enforced}) } });\n`;

describe('legate fuzz, then legate replay of its finding', () => {
  it('fails against the broken agent, naming the call, and passes once it is fixed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'legate.config.ts'), config(false));
    writeFileSync(join(dir, 'fixed.config.ts'), config(true));

    const fuzz = captureIo(dir);
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '50', '--seed', '3', '--out', 'fuzz'], fuzz)).toBe(1);
    expect(fuzz.text()).toMatch(/✗ mailer: 'send_email' was attempted 2 times, over its limit of 1/);
    const [name] = readdirSync(join(dir, 'fuzz'));
    const file = join('fuzz', name!);

    const broken = captureIo(dir);
    expect(await main(['replay', file], broken)).toBe(1);
    expect(broken.text()).toMatch(/call toolu_\w+ send_email \(turn \d+\) must be blocked by rule 'limit'/);

    const fixed = captureIo(dir);
    expect(await main(['replay', file, '--config', 'fixed.config.ts'], fixed)).toBe(0);
    expect(fixed.text()).toMatch(/✓ fuzz\/mailer-3\.yaml .*blocked send_email \(limit\)/);
    expect(fixed.text()).toContain('1 replayed: 1 passed, 0 failed');
  }, 60_000);
});
