import { resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import { diffTrajectories } from '../../src/index.js';
import { quoteValue } from '../../src/json/describeValue.js';
import { loadFile } from '../fileProblem.js';
import type { CliIo } from '../io.js';

export const diffHelp = `legate diff <a> <b>

Shows how two trajectories differ, turn by turn: the first difference in the header, in each
turn and in the summary, with its path and both values. Recording times and versions are
ignored. Exits 0 when they are the same, 1 when they differ, 2 when either cannot be read
(each such file gets one line, 'file: problem').`;

export async function diff(argv: string[], io: CliIo): Promise<number> {
  const args = parseOptions({ args: argv, allowPositionals: true, options: {} }).positionals;
  if (args.length !== 2) {
    io.err('legate diff: give two trajectory files, e.g. legate diff old.yaml new.yaml');
    return 2;
  }
  const [a, b] = args as [string, string];
  const [before, after] = [loadFile(resolve(io.cwd, a), a), loadFile(resolve(io.cwd, b), b)];
  if (!before.ok || !after.ok) {
    for (const loaded of [before, after]) if (!loaded.ok) io.err(loaded.problem);
    return 2;
  }
  const changes = diffTrajectories(before.trajectory, after.trajectory);
  if (changes.length === 0) {
    io.out(`${a} and ${b} record the same run.`);
    return 0;
  }
  for (const change of changes) {
    io.out(`${io.paint('bold', change.where)} at ${change.path === '' ? '(whole)' : change.path}`);
    io.out(`  ${io.paint('red', `- ${show(change.before)}`)}`);
    io.out(`  ${io.paint('green', `+ ${show(change.after)}`)}`);
  }
  io.out('');
  io.out(`${changes.length} difference${changes.length === 1 ? '' : 's'}`);
  return 1;
}

function show(value: unknown): string {
  return value === undefined ? '(absent)' : quoteValue(value);
}
