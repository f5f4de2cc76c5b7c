import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rerecordCommand, type ReplayRunner } from '../../src/replay/rerecordCommand.js';

const LEGATE = 'LEGATE_MODE=record npx legate replay';
const base = { legateModeSet: false };

describe('rerecordCommand: the command fits where the replay ran', () => {
  it('legate replay: itself, with LEGATE_MODE=record, and the --config it was given', () => {
    const cli = { kind: 'cli' } as const;
    expect(rerecordCommand({ file: 'trajectories/a.yaml', runner: cli, legateModeSet: true })).toBe(
      `${LEGATE} trajectories/a.yaml`,
    );
    const elsewhere = { kind: 'cli', config: 'ci/legate.config.ts' } as const;
    expect(rerecordCommand({ ...base, file: 'a.yaml', runner: elsewhere })).toBe(
      `${LEGATE} a.yaml --config ci/legate.config.ts`,
    );
  });

  it('vitest: -u where it re-records, else LEGATE_MODE=record', () => {
    const vitest = (update: boolean): ReplayRunner => ({ kind: 'vitest', update, testFile: 'test/a.test.ts' });
    expect(rerecordCommand({ ...base, file: 'a.yaml', runner: vitest(true) })).toBe('npx vitest run test/a.test.ts -u');
    const withMode = rerecordCommand({ file: 'a.yaml', runner: vitest(true), legateModeSet: true });
    expect(withMode).toBe('LEGATE_MODE=record npx vitest run test/a.test.ts');
    expect(rerecordCommand({ ...base, file: 'a.yaml', runner: vitest(false) })).toBe(
      'LEGATE_MODE=record npx vitest run test/a.test.ts',
    );
  });

  it('code: legate replay when the config has the agent, else how to add one', () => {
    const code = { kind: 'code' } as const;
    const configured = { ...base, file: 'a.yaml', runner: code, configAgents: ['support'] };
    expect(rerecordCommand({ ...configured, agent: 'support' })).toBe(`${LEGATE} a.yaml`);
    expect(rerecordCommand({ ...configured, agent: 'billing', config: 'legate.config.mjs' })).toBe(
      "run this program again with LEGATE_MODE=record set, or add a factory for agent 'billing' to the agents of " +
        `legate.config.mjs and run ${LEGATE} a.yaml`,
    );
    // Issue 31: the config is named as found; with none named, any legate.config.* would do.
    expect(rerecordCommand({ ...configured, agent: 'billing' })).toContain('the agents of legate.config.* and run');
    expect(rerecordCommand({ ...base, file: 'a.yaml', runner: code })).toBe(
      'run this program again with LEGATE_MODE=record set',
    );
  });

  it('quotes any path a shell would split or expand, so the command runs as printed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (file) => {
        const command = rerecordCommand({ ...base, file, runner: { kind: 'cli' } });
        const argument = command.slice(`${LEGATE} `.length);
        expect(unquote(argument)).toBe(file);
      }),
    );
  });
});

/** What a POSIX shell makes of one word made of plain characters and single-quoted parts. */
function unquote(word: string): string {
  if (/^[\w./@:+-]+$/.test(word)) return word;
  let out = '';
  for (const part of word.match(/'[^']*'|\\'/g) ?? []) out += part === "\\'" ? "'" : part.slice(1, -1);
  expect(word).toBe((word.match(/'[^']*'|\\'/g) ?? []).join(''));
  return out;
}
