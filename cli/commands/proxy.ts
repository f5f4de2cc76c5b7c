import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { LegateError, MATCH_LEVELS, startRecordingProxy, type MatchLevel } from '../../src/index.js';
import { parseOptions } from '../parseOptions.js';
import type { CliIo } from '../io.js';
import { terminalText } from '../terminalText.js';

export const proxyHelp = `legate proxy <file> [--record | --replay] [--upstream url] [--port n] [--match level]
             [--config file] -- <command> [args...]

Records or replays the Messages API traffic of a program in any language: starts legate's
recording proxy on 127.0.0.1, runs the command with ANTHROPIC_BASE_URL (and ANTHROPIC_API_URL)
pointing at it, and closes it when the command ends. The file is a trajectory, as interceptAnthropic
writes it (docs/intercept.md, The recording proxy).

  --record           record the command's traffic, sent on to --upstream
  --replay           serve the file: nothing reaches the network; a request that differs from the
                     recording gets a 400 the client does not retry, and legate says why
  (neither)          as LEGATE_MODE says, else replay under CI, else replay when the file exists
  --upstream url     where a recording sends requests on (default: ANTHROPIC_BASE_URL, else the API)
  --port n           the port to listen on (default: a free one)
  --match level      exact (default), structure or shape
  --config file      the project's legate.config (default: the nearest one)

LEGATE_MODE wins over --record and --replay, as for every recording in legate.
Exit codes: the command's own when it ends and the recording or replay holds; 1 when the replay
diverged or the recording could not be written (legate says why, after the command's output);
2 when the options are unusable.`;

/** `legate proxy`: the recording proxy around one command. */
export async function proxy(args: string[], io: CliIo): Promise<number> {
  const dash = args.indexOf('--');
  const own = dash === -1 ? args : args.slice(0, dash);
  const [command, ...commandArgs] = dash === -1 ? [] : args.slice(dash + 1);
  const { values, positionals } = parseOptions({
    args: own,
    allowPositionals: true,
    options: {
      record: { type: 'boolean' },
      replay: { type: 'boolean' },
      upstream: { type: 'string' },
      port: { type: 'string' },
      match: { type: 'string' },
      config: { type: 'string' },
    },
  });
  const refuse = (problem: string) => {
    io.err(`legate proxy: ${problem} Run 'legate proxy --help' for its options.`);
    return 2;
  };
  if (positionals.length !== 1 || command === undefined)
    return refuse(
      'it takes one trajectory file and, after --, the command to run (legate proxy --record run.yaml -- python ' +
        `agent.py), but it was given ${positionals.length} file${positionals.length === 1 ? '' : 's'} and ` +
        `${command === undefined ? 'no command' : 'a command'}.`,
    );
  if (values.record && values.replay) return refuse('it takes --record or --replay, not both.');
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(/^\d+$/.test(values.port!) && port <= 65535))
    return refuse(`--port must be a whole number from 0 to 65535, but it was ${JSON.stringify(values.port)}.`);
  if (values.match !== undefined && !(MATCH_LEVELS as readonly string[]).includes(values.match))
    return refuse(`--match must be one of ${MATCH_LEVELS.join(', ')}, but it was ${JSON.stringify(values.match)}.`);
  const running = await startRecordingProxy({
    file: positionals[0]!,
    cwd: io.cwd,
    ...(values.record ? { mode: 'record' as const } : values.replay ? { mode: 'replay' as const } : {}),
    ...(values.upstream === undefined ? {} : { upstream: values.upstream }),
    ...(port === undefined ? {} : { port }),
    ...(values.match === undefined ? {} : { match: values.match as MatchLevel }),
    ...(values.config === undefined ? {} : { config: values.config }),
    runner: {
      kind: 'proxy',
      command: [command, ...commandArgs],
      ...(values.config === undefined ? {} : { config: values.config }),
    },
  });
  io.err(
    `legate proxy: ${running.mode === 'passthrough' ? 'passing through' : `${running.mode}ing`} at ${running.url}`,
  );
  let code: number;
  try {
    code = await run(command, commandArgs, { ...process.env, ...running.env }, io.cwd);
  } catch (error) {
    await running.close().catch(() => {});
    return refuse(
      `it could not run ${JSON.stringify(command)}: ${(error as Error).message}. Give a program on the PATH, ` +
        'or a path to one, after --.',
    );
  }
  try {
    await running.close();
  } catch (error) {
    if (!(error instanceof LegateError)) throw error;
    io.err(`legate proxy: ${terminalText(error.message)}`);
    return code === 0 ? 1 : code;
  }
  if (running.mode === 'record') io.err(`legate proxy: recorded ${positionals[0]}`);
  return code;
}

/** Runs the command with the terminal's streams; its exit code (128 + the signal's number when a signal ended it). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.once('error', (error) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      reject(error);
    });
    child.once('exit', (status, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(status ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}
