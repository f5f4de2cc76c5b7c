import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rerecordCommand, type ReplayRunner } from '../../src/trajectory/rerecordCommand.js';

describe('rerecordCommand: the command fits where the replay ran', () => {
  it('legate replay: itself, with LEGATE_MODE=record, and the --config it was given', () => {
    expect(rerecordCommand({ file: 'trajectories/a.yaml', runner: { kind: 'cli' }, legateModeSet: true })).toBe('LEGATE_MODE=record npx legate replay trajectories/a.yaml');
    expect(rerecordCommand({ file: 'a.yaml', runner: { kind: 'cli', config: 'ci/legate.config.ts' }, legateModeSet: false })).toBe('LEGATE_MODE=record npx legate replay a.yaml --config ci/legate.config.ts');
  });

  it('vitest: -u where it re-records, else LEGATE_MODE=record', () => {
    const vitest = (update: boolean): ReplayRunner => ({ kind: 'vitest', update, testFile: 'test/a.test.ts' });
    expect(rerecordCommand({ file: 'a.yaml', runner: vitest(true), legateModeSet: false })).toBe('npx vitest run test/a.test.ts -u');
    expect(rerecordCommand({ file: 'a.yaml', runner: vitest(true), legateModeSet: true })).toBe('LEGATE_MODE=record npx vitest run test/a.test.ts');
    expect(rerecordCommand({ file: 'a.yaml', runner: vitest(false), legateModeSet: false })).toBe('LEGATE_MODE=record npx vitest run test/a.test.ts');
  });

  it('code: legate replay when the config has the agent, else how to add one', () => {
    const code = { kind: 'code' } as const;
    expect(rerecordCommand({ file: 'a.yaml', runner: code, agent: 'support', configAgents: ['support'], legateModeSet: false })).toBe('LEGATE_MODE=record npx legate replay a.yaml');
    expect(rerecordCommand({ file: 'a.yaml', runner: code, agent: 'billing', configAgents: ['support'], legateModeSet: false })).toBe(
      "run this program again with LEGATE_MODE=record set, or add a factory for agent 'billing' to the agents of legate.config.ts and run LEGATE_MODE=record npx legate replay a.yaml",
    );
    expect(rerecordCommand({ file: 'a.yaml', runner: code, legateModeSet: false })).toBe('run this program again with LEGATE_MODE=record set');
  });

  it('quotes any path a shell would split or expand, so the command runs as printed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (file) => {
        const command = rerecordCommand({ file, runner: { kind: 'cli' }, legateModeSet: false });
        const argument = command.slice('LEGATE_MODE=record npx legate replay '.length);
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
