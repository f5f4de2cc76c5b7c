import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { auditTrajectory } from '../../src/index.js';
import { recordUnguarded } from '../support/auditedRun.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const TOOLS = ['fetch_page', 'lookup_invoice', 'send_payment', 'send_email'];
const FLAGS = ['--untrusted', 'fetch_page', '--privileged', 'send_payment'];

/** A project folder holding an unsafe run (unsafe/run.yaml) and a clean one (clean/run.yaml). */
async function project(): Promise<string> {
  const dir = tempDir();
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const name of ['unsafe', 'clean']) mkdirSync(join(dir, name));
  await recordUnguarded(join(dir, 'unsafe'), TOOLS, [[{ tool: 'fetch_page' }], [{ tool: 'send_payment' }]]);
  await recordUnguarded(join(dir, 'clean'), TOOLS, [[{ tool: 'send_payment' }], [{ tool: 'fetch_page' }]]);
  return dir;
}

describe('legate audit', () => {
  it('exits 1 with the finding, naming both calls and the source, in one block per file', async () => {
    const dir = await project();
    const io = captureIo(dir);
    expect(await main(['audit', 'unsafe/run.yaml', ...FLAGS], io)).toBe(1);
    const out = io.stdout.join('\n');
    expect(out).toContain('✗ unsafe/run.yaml');
    expect(out).toContain(
      "'send_payment' (toolu_2_0, turn 2) ran after the result of 'fetch_page' (toolu_1_0, turn 1), which is " +
        'untrusted, entered the conversation: the guard would have blocked it (taint).',
    );
    // The same finding as the library's, word for word.
    const { loadTrajectory } = await import('../../src/index.js');
    const report = auditTrajectory(loadTrajectory(join(dir, 'unsafe/run.yaml')), {
      untrusted: ['fetch_page'],
      privileged: ['send_payment'],
    });
    for (const line of report.text.split('\n').filter((l) => l !== '')) expect(out).toContain(line);
    expect(io.stdout.at(-1)).toBe('1 audited: 0 clean, 1 with an unsafe flow, 0 unreadable');
    expect(io.stderr).toEqual([]);
  });

  it('exits 0 on a clean file, and audits a folder file by file', async () => {
    const dir = await project();
    const clean = captureIo(dir);
    expect(await main(['audit', 'clean/run.yaml', ...FLAGS], clean)).toBe(0);
    expect(clean.stdout).toEqual(['✓ clean/run.yaml', '', '1 audited: 1 clean, 0 with an unsafe flow, 0 unreadable']);
    const both = captureIo(dir);
    expect(await main(['audit', '.', '--untrusted=fetch_page', '--privileged', 'send_payment,send_email'], both)).toBe(
      1,
    );
    expect(both.stdout[0]).toBe('✓ clean/run.yaml');
    expect(both.stdout).toContain('✗ unsafe/run.yaml');
  });

  it("takes its declarations from the config's audit section, the flags added to them", async () => {
    const dir = await project();
    writeFileSync(
      join(dir, 'legate.config.mjs'),
      "export default { agents: {}, audit: { untrusted: ['fetch_page'], privileged: ['send_payment'] } };\n",
    );
    expect(await main(['audit', 'unsafe/run.yaml'], captureIo(dir))).toBe(1);
    expect(await main(['audit', 'clean/run.yaml'], captureIo(dir))).toBe(0);
    // A prerequisite from a flag, on top of the config's: the clean run paid before looking the invoice up.
    const io = captureIo(dir);
    expect(await main(['audit', 'clean/run.yaml', '--require', 'send_payment:lookup_invoice'], io)).toBe(1);
    expect(io.stdout.join('\n')).toContain("'send_payment' (toolu_1_0, turn 1) would have been blocked (prerequisite)");
  });

  it('classifies by recorded annotations with --recorded-annotations, or the config saying so', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 't'));
    copyFileSync('trajectories/zero-trust.yaml', join(dir, 't', 'zero-trust.yaml'));
    // Recorded by a guarded agent: the payment was blocked there, so the file is clean, the finding listed apart.
    const io = captureIo(dir);
    expect(await main(['audit', 't', '--recorded-annotations'], io)).toBe(0);
    expect(io.stdout[0]).toBe('✓ t/zero-trust.yaml (1 call the guard would block, not run)');
    // Recorded hints never make a tool trusted; --trusted does.
    const trusted = captureIo(dir);
    expect(await main(['audit', 't', '--recorded-annotations', '--trusted', 'fetch_page'], trusted)).toBe(0);
    expect(trusted.stdout[0]).toBe('✓ t/zero-trust.yaml');
    writeFileSync(
      join(dir, 'legate.config.mjs'),
      'export default { agents: {}, audit: { recordedAnnotations: true } };\n',
    );
    expect(await main(['audit', 't'], captureIo(dir))).toBe(0);
    // (A config is imported once per process: another file for another config.)
    writeFileSync(join(dir, 'empty.mjs'), 'export default { agents: {}, audit: {} };\n');
    expect(await main(['audit', 't', '--config', 'empty.mjs'], captureIo(dir))).toBe(2);
  });

  it('exits 2 with one line on usage errors', async () => {
    const dir = await project();
    const cases: [string[], string][] = [
      [['audit', 'unsafe/run.yaml'], 'legate audit: nothing is declared to audit against'],
      [['audit', ...FLAGS], 'legate audit: give trajectory files or folders'],
      [
        ['audit', 'unsafe/run.yaml', '--limit', 'send_email'],
        "--limit takes tool=N (N a whole number), not 'send_email'",
      ],
      [
        ['audit', 'unsafe/run.yaml', '--require', 'send_payment'],
        "--require takes tool:prerequisite, not 'send_payment'",
      ],
      [
        ['audit', 'unsafe/run.yaml', '--limit', 'send_email=0'],
        "(the limit on 'send_email') must be a whole number of calls of at least 1, but it was the number 0",
      ],
      [['audit', 'nope.yaml', ...FLAGS], 'nope.yaml: does not exist'],
      [['audit', 'unsafe/run.yaml', '--bogus'], "legate audit: unknown option '--bogus'."],
    ];
    for (const [args, expected] of cases) {
      const io = captureIo(dir);
      expect(await main(args, io), args.join(' ')).toBe(2);
      expect(io.stderr.length, args.join(' ')).toBe(1);
      expect(io.stderr[0]).toContain(expected);
      expect(io.stderr[0]).not.toContain('    at ');
    }
    writeFileSync(
      join(dir, 'legate.config.mjs'),
      "export default { agents: {}, audit: { untrusted: 'fetch_page' } };\n",
    );
    const io = captureIo(dir);
    expect(await main(['audit', 'unsafe/run.yaml'], io)).toBe(2);
    expect(io.stderr).toEqual([
      expect.stringContaining("audit declarations 'untrusted' must be a list of tool names, but it was"),
    ]);
  });
});
