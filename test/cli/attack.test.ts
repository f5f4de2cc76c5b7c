import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { runAttackSuite } from '../../src/fuzz/index.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';
import { miniBank } from '../fuzz/attack/miniBank.js';

const tempDir = useTempDir();
const root = resolve('.');

/** A project folder with a module exporting the mini suite (as `exported`), and a config declaring `secrets`. */
function project(exported = 'export default miniBank();', secrets = "['EVE']"): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'suite.ts'),
    `import { miniBank } from '${root}/test/fuzz/attack/miniBank.ts';\n${exported}\n`,
  );
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\n` +
      `export default defineConfig({ agents: {}, secrets: ${secrets} });\n`,
  );
  return dir;
}

describe('legate attack', () => {
  it('prints the markdown table and writes the successful attacks under reports/attacks', async () => {
    const dir = project();
    const io = captureIo(dir);
    expect(await main(['attack', 'suite.ts', '--modes', 'none,approve'], io)).toBe(0);
    const expected = (await runAttackSuite(miniBank(), { modes: ['none', 'approve'] })).toText();
    expect(io.stdout).toEqual([expected]); // the report alone: what docs paste
    // The config's secrets apply: the attacks naming EVE are reported, not written, and stderr says why.
    expect(io.stderr[0]).toBe('legate attack: 2 successful attacks written under reports/attacks');
    expect(readdirSync(join(dir, 'reports/attacks/mini/none')).sort()).toEqual([
      'pay-alice--tip.yaml',
      'pay-bill--tip.yaml',
    ]);
    expect(io.stderr).toHaveLength(3);
    expect(io.stderr[1]).toMatch(
      /^legate attack: ✗ none: task 'pay-alice', injection 'steal' was not written: .*secret/,
    );
  });

  it('--json prints the report as JSON on standard output, and nothing else there', async () => {
    const dir = project('export const suite = miniBank();', '[]');
    const io = captureIo(dir);
    expect(await main(['attack', 'suite.ts', '--modes', 'taint', '--json', '--out', 'out'], io)).toBe(0);
    expect(io.stdout).toHaveLength(1);
    const report = JSON.parse(io.stdout[0]!);
    expect(report).toMatchObject({ suite: 'mini', tasks: 2, injections: 2 });
    expect(report.modes).toEqual((await runAttackSuite(miniBank(), { modes: ['taint'] })).modes);
    expect(existsSync(join(dir, 'out'))).toBe(false); // no attack succeeded under strict taint
  });

  it('runs every mode by default', async () => {
    const io = captureIo(project('export default miniBank();', '[]'));
    expect(await main(['attack', 'suite.ts', '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout[0]!).modes.map((m: { mode: string }) => m.mode)).toEqual([
      'none',
      'taint',
      'approve',
      'provenance',
    ]);
  });

  it.each([
    ['no module', ['attack'], /^legate attack: give one module that exports an attack suite, e\.g\. /],
    ['two modules', ['attack', 'suite.ts', 'other.ts'], /give one module .*; it was given 2\.$/],
    ['--modes twice', ['attack', 'suite.ts', '--modes', 'taint,taint'], /--modes names 'taint' twice\. Give /],
    ['--modes empty', ['attack', 'suite.ts', '--modes', ''], /--modes names "", which is not a defence mode/],
    ['--out a file', ['attack', 'suite.ts', '--out', 'suite.ts'], /--out: .*suite\.ts is a file, not a folder/],
    ['--out blank', ['attack', 'suite.ts', '--out', ' '], /--out: the folder for findings must be named/],
  ])('%s: one line on standard error, exit 2', async (_case, argv, says) => {
    const io = captureIo(project());
    expect(await main(argv, io)).toBe(2);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(says);
  });

  it('a module without a suite: one line naming the module and what to export, exit 2', async () => {
    const none = captureIo(project('export const other = 1;'));
    expect(await main(['attack', 'suite.ts'], none)).toBe(2);
    expect(none.stderr).toEqual([
      "legate attack: suite.ts exports no attack suite: export one as the default export or as 'suite' " +
        "(export default { name, environment, inject, agent, model, tasks, injections }); it exports 'other'.",
    ]);
  });

  it('a module whose suite cannot be run: one line naming the export and what is wrong, exit 2', async () => {
    const broken = captureIo(project('export default { ...miniBank(), tasks: [] };'));
    expect(await main(['attack', 'suite.ts'], broken)).toBe(2);
    expect(broken.stderr).toEqual([
      "legate attack: suite.ts's default export must be an AttackSuite: { name, environment(), inject(env, text), " +
        "agent(env, mode, transport), model(), tasks, injections }, but its 'tasks' is empty: give at least one " +
        'user task.',
    ]);
  });

  it('a run of the suite that fails: one line naming the mode, task and injection, exit 1', async () => {
    const io = captureIo(
      project(
        "import { ScriptedTransport } from '" +
          root +
          "/src/index.ts';\n" +
          'export default { ...miniBank(), model: () => new ScriptedTransport([]) };',
      ),
    );
    expect(await main(['attack', 'suite.ts', '--modes', 'approve'], io)).toBe(1);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(
      /^legate attack: Error: attack suite 'mini', mode approve: task 'pay-alice' alone: the run failed: /,
    );
  });

  it('--out is checked before the module is even loaded', async () => {
    const dir = project('throw new Error("loaded");');
    const io = captureIo(dir);
    expect(await main(['attack', 'suite.ts', '--out', 'legate.config.ts/x'], io)).toBe(2);
    expect(io.stderr).toEqual([
      'legate attack: --out: findings cannot be written to legate.config.ts/x: legate.config.ts/x cannot be ' +
        'looked at (ENOTDIR). Pass a folder that exists or can be made.',
    ]);
  });
});
