import { resolve } from 'node:path';
import { loadTrajectory } from '../../src/index.js';
import type { CliIo } from '../io.js';
import { renderTimeline } from '../timeline.js';

export const showHelp = `legate show <file>

Prints a trajectory as a readable timeline: the input, each turn's text and tool calls with
their arguments and outcomes, and the usage. Coloured on a terminal (NO_COLOR turns it off).`;

export async function show(args: string[], io: CliIo): Promise<number> {
  if (args.length !== 1) {
    io.err('legate show: give exactly one trajectory file, e.g. legate show trajectories/tool-loop.yaml');
    return 2;
  }
  const trajectory = loadTrajectory(resolve(io.cwd, args[0]!));
  io.out(renderTimeline(trajectory, io.paint));
  return 0;
}
