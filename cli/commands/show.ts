import { resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import { loadFile } from '../fileProblem.js';
import type { CliIo } from '../io.js';
import { terminalText } from '../terminalText.js';
import { renderTimeline } from '../renderTimeline.js';

export const showHelp = `legate show <file...>

Prints a trajectory as a readable timeline: the input, each turn's text and tool calls with
their arguments and outcomes, and the usage. Coloured on a terminal (a non-empty NO_COLOR turns it off).
Given several files, shows each under a heading; a file that cannot be read gets one line
('file: problem') and the others are still shown. Exits 2 if any file is missing or could not
be read, else 1 if any is not a valid trajectory, else 0.`;

export async function show(argv: string[], io: CliIo): Promise<number> {
  const args = parseOptions({ args: argv, allowPositionals: true, options: {} }).positionals;
  if (args.length === 0) {
    io.err('legate show: give a trajectory file, e.g. legate show trajectories/tool-loop.yaml');
    return 2;
  }
  let failed = 0;
  let notRead = 0;
  for (const [i, file] of args.entries()) {
    const loaded = loadFile(resolve(io.cwd, file), file);
    if (!loaded.ok) {
      if (loaded.notRead) notRead++;
      else failed++;
      io.err(loaded.problem);
      continue;
    }
    if (args.length > 1) {
      if (i > 0) io.out('');
      io.out(io.paint('bold', `── ${terminalText(file)}`));
    }
    io.out(renderTimeline(loaded.trajectory, io.paint));
  }
  return notRead > 0 ? 2 : failed > 0 ? 1 : 0;
}
