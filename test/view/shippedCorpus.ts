import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrajectory, type Trajectory } from '../../src/index.js';

/** The shipped trajectories, each with its text and file name as the CLI names it. */
export const corpus: { file: string; text: string; trajectory: Trajectory }[] = readdirSync('trajectories')
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => {
    const file = join('trajectories', name);
    const text = readFileSync(file, 'utf8');
    return { file, text, trajectory: parseTrajectory(text, file) };
  });

export function shipped(name: string): Trajectory {
  const found = corpus.find((entry) => entry.file === join('trajectories', `${name}.yaml`));
  if (found === undefined) throw new Error(`no shipped trajectory ${name}`);
  return found.trajectory;
}
