import { resolve } from 'node:path';
import {
  configShown,
  loadProject,
  resolveReplaySettings,
  runTrajectory,
  TrajectoryDivergenceError,
} from '../../src/index.js';
import { loadFile } from '../fileProblem.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../parseOptions.js';
import { terminalText } from '../terminalText.js';

export const forkHelp = `legate fork <file> --at N --out <file> [--sample k] [--config file]

Forks a recorded run at a turn: serves the file's first N turns as legate replay does (every
request compared, every call's decision too, the tools run or served as the config's runTools
says, the recorded clock), then goes on live from turn N+1 with the config's transport
(AnthropicTransport by default, which needs ANTHROPIC_API_KEY) and writes the whole run to
--out. That file replays on its own with legate replay, and names its parent and the turn
(fork: parent, turn, digest); its replay says so when the parent changed since. The file's
agent comes from legate.config.ts (found here or in a folder above), as for legate replay.

N runs from 1 to the file's last turn but one, or to its last when its run ended suspended for
approval (deciding the held calls takes code: runTrajectory's approve, docs/evaluation.md).
--sample k forks the file's k-th sample (default 1, its own run). The file is only read; --out
must be another file, and an older fork there is replaced. LEGATE_MODE does not apply: the
command always forks and writes --out.

Exit codes: 0 the fork was written; 1 today's code does not make the file's first N turns (the
divergence is printed, nothing is written); 2 the file, --at, --out, --sample, the config or its
transport are unusable (one line says which and what to do).`;

export async function fork(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      at: { type: 'string' },
      out: { type: 'string' },
      sample: { type: 'string' },
      config: { type: 'string' },
    },
  });
  if (positionals.length !== 1 || values.at === undefined || values.out === undefined) {
    io.err(
      'legate fork: give one trajectory file, the turn to fork it at and the new file, e.g. legate fork run.yaml ' +
        '--at 6 --out fix.yaml',
    );
    return 2;
  }
  const turn = wholeNumber('--at', values.at);
  const sample = values.sample === undefined ? 1 : wholeNumber('--sample', values.sample);
  if (typeof turn === 'string' || typeof sample === 'string') {
    io.err(`legate fork: ${typeof turn === 'string' ? turn : sample}`);
    return 2;
  }
  const config = values.config === undefined ? {} : { config: values.config };
  const project = await loadProject({ cwd: io.cwd, requireConfig: true, ...config });
  const [file, out] = [positionals[0]!, values.out];
  const loaded = loadFile(resolve(io.cwd, file), file);
  if (!loaded.ok) {
    io.err(loaded.problem);
    return 2;
  }
  const parent = loaded.trajectory;
  const agents = project.config.agents ?? {};
  const factory = agents[parent.agent];
  if (factory === undefined) {
    const exported = Object.keys(agents).map((name) => `'${terminalText(name)}'`);
    io.err(
      `legate fork: ${terminalText(file)} names agent '${terminalText(parent.agent)}', which ` +
        `${configShown(project, io.cwd)} does not export; it exports ${exported.join(', ') || 'no agents'}.`,
    );
    return 2;
  }
  const settings = resolveReplaySettings({
    given: {
      file: resolve(io.cwd, file),
      forkAt: { turn, sample },
      out: resolve(io.cwd, out),
    },
    project,
    trajectory: parent,
    runner: { kind: 'cli', ...config },
    cwd: io.cwd,
    shown: terminalText(out),
  });
  try {
    // The command is the fork: it records whatever LEGATE_MODE says.
    const run = await runTrajectory({
      file: resolve(io.cwd, file),
      agent: factory,
      trajectory: parent,
      settings: { ...settings, mode: 'record' },
      report: (message) => io.err(`legate fork: ${message}`),
    });
    const { result } = run;
    const live = result.turns - turn;
    io.out(
      `forked ${terminalText(file)} at turn ${turn} into ${terminalText(out)}: ${turn} turn${turn === 1 ? '' : 's'} ` +
        `served from it, ${live} live; ${result.stopReason}`,
    );
    return 0;
  } catch (error) {
    // Today's code does not make the parent's turns: the finding, not bad input.
    if (!(error instanceof TrajectoryDivergenceError)) throw error;
    io.err(`legate fork: ${error.message}`);
    return 1;
  }
}

/** The whole number of at least 1 an option gives, or the one-line problem with it. */
function wholeNumber(flag: string, text: string): number | string {
  if (/^[1-9]\d*$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  return `${flag} must be a whole number of at least 1, but it was "${text}".`;
}
