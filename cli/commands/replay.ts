import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  MATCH_LEVELS,
  TrajectoryDivergenceError,
  TrajectoryFormatError,
  resolveMode,
  runTrajectory,
  summarizeChanges,
  type LegateConfig,
  type MatchLevel,
  type TrajectoryRun,
} from '../../src/index.js';
import { describeError } from '../describeError.js';
import { loadFile } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { loadConfig } from '../loadConfig.js';

export const replayHelp = `legate replay [paths...] [--match exact|structure|shape] [--config file]

Replays every trajectory under the paths (default: the config's folder, trajectories/)
against today's code: each file's agent comes from legate.config.ts, tools run for real,
and every request must match the recording. One verdict line per file, then a summary;
the exit code is 1 if any file diverged or could not be read.

With LEGATE_MODE=record the same command re-records the files live instead.`;

export async function replay(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { match: { type: 'string' }, config: { type: 'string' } } });
  const match = values.match ?? 'exact';
  if (!MATCH_LEVELS.includes(match as MatchLevel)) {
    io.err(`legate replay: --match must be one of ${MATCH_LEVELS.join(', ')}, but it was '${match}'.`);
    return 2;
  }
  const { config } = await loadConfig(values.config, io.cwd);
  const paths = positionals.length > 0 ? positionals : [config.trajectories ?? 'trajectories'];
  const { files, missing, unreadable } = findTrajectories(paths.map((p) => resolve(io.cwd, p)), io.cwd);
  for (const path of missing) io.err(`legate replay: ${path} does not exist.`);
  for (const problem of unreadable) io.err(`legate replay: ${problem}`);
  if (files.length === 0) {
    io.err(`legate replay: no trajectory files (*.yaml) under ${paths.join(', ')}.`);
    return 1;
  }
  const mode = resolveMode('replay');
  let failed = 0;
  for (const file of files) {
    const verdict = await replayOne(resolve(io.cwd, file), file, config, mode, match as MatchLevel);
    if (!verdict.ok) failed++;
    if (verdict.ok) io.out(`${io.paint('green', '✓')} ${file}  ${io.paint('dim', verdict.detail)}`);
    else if (verdict.unreadable) io.out(`${io.paint('red', '✗')} ${verdict.detail}`);
    else io.out(`${io.paint('red', '✗')} ${file}\n${indent(verdict.detail)}`);
  }
  const verb = mode === 'record' ? 'recorded' : 'replayed';
  io.out('');
  io.out(`${files.length} ${verb}: ${files.length - failed} passed, ${failed} failed${missing.length > 0 ? `, ${missing.length} missing` : ''}${unreadable.length > 0 ? `, ${unreadable.length} unreadable folder${unreadable.length === 1 ? '' : 's'}` : ''}`);
  return failed + missing.length + unreadable.length > 0 ? 1 : 0;
}

/** A file's verdict; an unreadable file's detail is its one-line problem, starting with its path. */
type Verdict = { ok: boolean; detail: string; unreadable?: true };

async function replayOne(path: string, shown: string, config: LegateConfig, mode: ReturnType<typeof resolveMode>, match: MatchLevel): Promise<Verdict> {
  const loaded = loadFile(path, shown);
  if (!loaded.ok) return { ok: false, detail: loaded.problem, unreadable: true };
  try {
    const agentName = loaded.trajectory.agent;
    const factory = config.agents[agentName];
    if (factory === undefined) {
      return { ok: false, detail: `${shown} names agent '${agentName}', which legate.config.ts does not export; it exports ${Object.keys(config.agents).map((n) => `'${n}'`).join(', ') || 'no agents'}.` };
    }
    const run = await runTrajectory({
      file: path,
      agent: factory,
      mode: mode === 'auto' ? 'replay' : mode,
      match,
      redactions: config.redactions ?? [],
      secrets: config.secrets ?? [],
      ...(config.transport === undefined ? {} : { transport: config.transport }),
      rerecord: config.rerecord?.(shown) ?? `LEGATE_MODE=record npx legate replay ${shown}`,
      report: false, // the verdict line says what changed
    });
    return { ok: true, detail: describeRun(run) };
  } catch (error) {
    if (error instanceof TrajectoryDivergenceError || error instanceof TrajectoryFormatError) return { ok: false, detail: error.message.replace(`${path}`, shown) };
    return { ok: false, detail: describeError(error) };
  }
}

function describeRun(run: TrajectoryRun): string {
  const turns = `${run.result.turns} turn${run.result.turns === 1 ? '' : 's'}, ${run.result.stopReason}`;
  if (run.mode !== 'record') return turns;
  return `${turns}; recorded (${run.changes === undefined ? 'new' : summarizeChanges(run.changes)})`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
