import { resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import { loadProject, resolveReplaySettings } from '../../src/index.js';
import { loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { terminalText } from '../terminalText.js';

export const validateHelp = `legate validate [paths...]

Checks trajectory files against the format (default: the folder legate replay reads, the
config's 'trajectories', else trajectories/ at the project root). Every file gets
its own verdict, and one that cannot be read does not stop the others: '✓ file' when it is
valid, else one line 'file:line:column: problem' (or 'file: problem' where there is no line:
missing, not a regular file, unreadable). Exits 2 if any path is missing or could not be read,
else 1 if any file is invalid, else 0.`;

export async function validate(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseOptions({ args, allowPositionals: true, options: {} });
  const paths = positionals.length > 0 ? positionals.map((p) => resolve(io.cwd, p)) : [await projectFolder(io.cwd)];
  const { files, missing, unreadable } = findTrajectories(paths, io.cwd);
  for (const path of missing) io.err(missingProblem(path));
  for (const problem of unreadable) io.err(problem);
  let invalid = 0;
  let notRead = 0;
  for (const file of files) {
    const loaded = loadFile(resolve(io.cwd, file), file);
    if (loaded.ok) {
      io.out(`${io.paint('green', '✓')} ${terminalText(file)}`);
    } else {
      if (loaded.notRead) notRead++;
      else invalid++;
      io.err(loaded.problem);
    }
  }
  if (files.length > 0 || missing.length + unreadable.length === 0) {
    // (When every path given was a problem, its own line says so: no summary of nothing.)
    io.out('');
    io.out(`${files.length} checked: ${files.length - invalid - notRead} valid, ${invalid + notRead} invalid`);
  }
  // A file that could not be read at all is bad input (2); one read and found invalid is the finding (1).
  return notRead + missing.length + unreadable.length > 0 ? 2 : invalid > 0 ? 1 : 0;
}

/** The project's trajectory folder, as legate replay finds it (with or without a config). */
async function projectFolder(cwd: string): Promise<string> {
  return resolveReplaySettings({ project: await loadProject({ cwd }), runner: { kind: 'cli' }, cwd }).folder;
}
