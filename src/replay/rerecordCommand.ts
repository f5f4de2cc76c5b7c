import { RUN_AGAIN_TO_RECORD } from '../trajectory/trajectoryFile.js';

/**
 * Where a replay runs, which decides the command that re-records its file:
 * - `cli`: `legate replay` itself (`config` is the `--config` it was given, if any);
 * - `vitest`: `replayTrajectory` in a vitest test (`-u` re-records it) or `runTrajectory` called
 *   from one (`testFile` when known; `update: false` when `-u` does not re-record that call);
 * - `proxy`: `legate proxy` around a command (`config` as for `cli`);
 * - `code`: anything else: a script, another test runner.
 */
export type ReplayRunner =
  | { kind: 'cli'; config?: string }
  | { kind: 'proxy'; command: readonly string[]; config?: string }
  | { kind: 'vitest'; testFile?: string; update: boolean }
  | { kind: 'code' };

interface RerecordContext {
  /** The trajectory file, as the user would type it from where they are. */
  file: string;
  runner: ReplayRunner;
  /** The agent the file records, when it is known (it is not for a file that does not exist yet). */
  agent?: string;
  /** The agents the project's `legate.config.*` exports, if there is one. */
  configAgents?: readonly string[];
  /** The project's config as the user would name it (see configShown): `legate.config.*` when not given. */
  config?: string;
  /** True when `LEGATE_MODE` is set: it wins over everything else, so a command must set it itself. */
  legateModeSet: boolean;
}

/**
 * The one place the advice "how to re-record this file" is built, quoted by every divergence
 * and missing-file message. Each command it prints works in that context: `LEGATE_MODE` wins
 * over a mode in code (see recording/mode.ts), so `LEGATE_MODE=record` always switches a run.
 */
export function rerecordCommand(context: RerecordContext): string {
  const { file, runner, agent, configAgents } = context;
  const config =
    (runner.kind === 'cli' || runner.kind === 'proxy') && runner.config !== undefined
      ? ` --config ${quote(runner.config)}`
      : '';
  const legateReplay = `LEGATE_MODE=record npx legate replay ${quote(file)}${config}`;
  if (runner.kind === 'cli') return legateReplay;
  if (runner.kind === 'proxy') {
    const command = runner.command.map(quote).join(' ');
    const mode = context.legateModeSet ? 'LEGATE_MODE=record npx legate proxy' : 'npx legate proxy --record';
    return `${mode} ${quote(file)}${config} -- ${command}`;
  }
  if (runner.kind === 'vitest') {
    const test = runner.testFile === undefined ? '' : ` ${quote(runner.testFile)}`;
    if (runner.update && !context.legateModeSet) return `npx vitest run${test} -u`;
    return `LEGATE_MODE=record npx vitest run${test}`;
  }
  if (agent !== undefined && configAgents?.includes(agent) === true) return legateReplay;
  const again = RUN_AGAIN_TO_RECORD;
  if (agent === undefined) return again;
  const configName = context.config ?? 'legate.config.*';
  return `${again}, or add a factory for agent '${agent}' to the agents of ${configName} and run ${legateReplay}`;
}

/** A path as a shell reads it: quoted only when it holds anything beyond the plain characters. */
function quote(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
