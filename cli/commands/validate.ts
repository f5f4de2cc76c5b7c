import { resolve } from 'node:path';
import { TrajectoryFormatError, loadTrajectory } from '../../src/index.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';

export const validateHelp = `legate validate [paths...]

Checks trajectory files against the format (default folder: trajectories/). Each problem is
printed as file:line:column: message. Exits 1 if any file is invalid.`;

export async function validate(args: string[], io: CliIo): Promise<number> {
  const paths = args.length > 0 ? args : ['trajectories'];
  const { files, missing } = findTrajectories(paths.map((p) => resolve(io.cwd, p)), io.cwd);
  for (const path of missing) io.err(`${path}: does not exist`);
  let invalid = missing.length;
  for (const file of files) {
    try {
      loadTrajectory(resolve(io.cwd, file));
      io.out(`${io.paint('green', '✓')} ${file}`);
    } catch (error) {
      if (!(error instanceof TrajectoryFormatError)) throw error;
      invalid++;
      io.err(`${TrajectoryFormatError.location(file, error.line, error.column)}: ${error.problem}`);
    }
  }
  io.out('');
  io.out(`${files.length} checked: ${files.length - (invalid - missing.length)} valid, ${invalid - missing.length} invalid`);
  return invalid > 0 ? 1 : 0;
}
