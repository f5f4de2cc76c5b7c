import { relative, resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import {
  isMatchLevel,
  loadProject,
  MATCH_LEVELS,
  resolveReplaySettings,
  RUN_TOOLS_CHOICES,
  runTrajectory,
  TrajectoryDivergenceError,
  TrajectoryFormatError,
  TransportError,
  summarizeChanges,
  type ConfiguredProject,
  type MatchLevel,
  type ReplayRunner,
  type RunToolsChoice,
  type TrajectoryRun,
} from '../../src/index.js';
import { describeError } from '../describeError.js';
import { errorCode, loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { ReplayReport, type FileResult } from '../replayReport.js';

export const replayHelp = `legate replay [paths...] [--match ${MATCH_LEVELS.join('|')}] [--config file] [--bail]
              [--run-tools ${RUN_TOOLS_CHOICES.join('|')}] [--reporter junit|html --output file|-]

Replays every trajectory under the paths (default: the config's 'trajectories' folder,
trajectories/ next to it) against today's code: each file's agent comes from
legate.config.ts (found here or in a folder above), and every request and every tool call's
decision (ran, refused, blocked, held for approval) must match the recording, the decisions
compared before anything runs. One verdict line per file, then a summary. Exit codes: 0 every
file passed; 1 a file diverged or is not a valid trajectory; 2 a path is missing or could not
be read, or the options, the config or a module are unusable (one line says which and what to do).

The match level is --match, else the config's 'match', else the file's own 'match:', else
exact. The config's redactions, secrets and transport apply to every file.

--run-tools says which tools run for real: safe (the default, else the config's 'runTools')
runs the tools without side effects and serves the privileged, compensated, remote (MCP) and
not-read-only ones from the recording, so a replay never repeats a payment or an email nor
contacts an MCP server; all runs every tool;
none serves every tool. A call whose recorded input was redacted is always served.

--bail stops at the first file that fails; the summary says how many were not run.

--reporter junit --output report.xml also writes a JUnit XML report (one test case per file;
a divergence is a <failure>, a file that could not be replayed an <error>, a file not run
after --bail <skipped/>), whole or not at all. --output - writes it to standard output, and
the verdict lines go to standard error. --output's folder must exist.

--reporter html --output replay.html (--report html is the same) writes the HTML page of the
files, as legate view does, with each file's verdict: passed, diverged (the divergence marked at
its turn, recorded and actual values side by side), error or missing.

With LEGATE_MODE=record the same command re-records the files live instead.`;

export async function replay(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      match: { type: 'string' },
      config: { type: 'string' },
      bail: { type: 'boolean' },
      reporter: { type: 'string' },
      report: { type: 'string' },
      output: { type: 'string' },
      'run-tools': { type: 'string' },
    },
  });
  const runTools = values['run-tools'];
  if (runTools !== undefined && !(RUN_TOOLS_CHOICES as readonly string[]).includes(runTools)) {
    io.err(`legate replay: --run-tools must be one of ${RUN_TOOLS_CHOICES.join(', ')}, but it was '${runTools}'.`);
    return 2;
  }
  if (values.match !== undefined && !isMatchLevel(values.match)) {
    io.err(`legate replay: --match must be one of ${MATCH_LEVELS.join(', ')}, but it was '${values.match}'.`);
    return 2;
  }
  if (values.reporter !== undefined && values.report !== undefined && values.reporter !== values.report) {
    io.err(
      `legate replay: --report is another name for --reporter; give one, not both ('${values.reporter}' and ` +
        `'${values.report}').`,
    );
    return 2;
  }
  const report = ReplayReport.fromOptions(values.reporter ?? values.report, values.output, io.cwd);
  if (typeof report === 'string') {
    io.err(`legate replay: ${report}`);
    return 2;
  }
  const out = report.verdictsTo(io);
  const config = values.config === undefined ? {} : { config: values.config };
  const project = await loadProject({ cwd: io.cwd, requireConfig: true, ...config });
  const runner: ReplayRunner = { kind: 'cli', ...config };
  // `replay` unless LEGATE_MODE says otherwise (it wins over a mode given, see resolveMode).
  const context: ReplayContext = { project, runner, cwd: io.cwd, mode: 'replay' };
  const { folder, mode } = resolveReplaySettings({ project, runner, cwd: io.cwd, given: { mode: context.mode } });
  const paths = positionals.length > 0 ? positionals.map((p) => resolve(io.cwd, p)) : [folder];
  const { files, missing, unreadable } = findTrajectories(paths, io.cwd);
  for (const path of missing) io.err(`legate replay: ${missingProblem(path)}`);
  for (const problem of unreadable) io.err(`legate replay: ${problem}`);
  for (const path of missing) report.pathProblem(path, 'not_found', missingProblem(path));
  for (const problem of unreadable) report.pathProblem(problem.slice(0, problem.indexOf(': ')), 'unreadable', problem);
  if (files.length === 0) {
    if (missing.length + unreadable.length > 0) return report.finish(2, io); // each path given already has its line
    const shown = paths.map((p) => relative(io.cwd, p) || p);
    io.err(
      `legate replay: no trajectory files (*.yaml) under ${shown.join(', ')}; give a file or a folder that holds some.`,
    );
    return report.finish(2, io);
  }
  let failed = 0;
  let notRead = 0;
  let run = 0;
  for (const file of files) {
    const fileStarted = performance.now();
    const verdict = await replayOne(resolve(io.cwd, file), file, context, {
      match: values.match as MatchLevel | undefined,
      runTools: runTools as RunToolsChoice | undefined,
    });
    report.file(file, verdict, (performance.now() - fileStarted) / 1000);
    run++;
    if (!verdict.ok) failed++;
    if (verdict.notRead === true) notRead++;
    if (verdict.ok) out(`${io.paint('green', '✓')} ${file}  ${io.paint('dim', verdict.detail)}`);
    else if (verdict.unreadable) out(`${io.paint('red', '✗')} ${verdict.detail}`);
    else out(`${io.paint('red', '✗')} ${file}\n${indent(verdict.detail)}`);
    if (!verdict.ok && values.bail === true) break;
  }
  for (const file of files.slice(run)) {
    const loaded = report.wantsTrajectories() ? loadFile(resolve(io.cwd, file), file) : undefined;
    report.skipped(file, loaded?.ok === true ? loaded.trajectory : undefined);
  }
  const verb = mode === 'record' ? 'recorded' : 'replayed';
  out('');
  const missingNote = missing.length > 0 ? `, ${missing.length} missing` : '';
  const folders = unreadable.length === 1 ? 'folder' : 'folders';
  const unreadableNote = unreadable.length > 0 ? `, ${unreadable.length} unreadable ${folders}` : '';
  const notRun = files.length > run ? `, ${files.length - run} not run (--bail)` : '';
  out(`${run} ${verb}: ${run - failed} passed, ${failed} failed${missingNote}${unreadableNote}${notRun}`);
  // A path that could not be read at all is bad input (2), as for every verb; a file that failed is the finding (1).
  return report.finish(notRead + missing.length + unreadable.length > 0 ? 2 : failed > 0 ? 1 : 0, io);
}

/**
 * A file's verdict; an unreadable file's detail is its one-line problem, starting with its path; `notRead` when
 * the file could not be read at all (missing, not a regular file, refused by the system).
 */
type Verdict = FileResult & { unreadable?: true; notRead?: boolean };

/** What every file's run shares: the project and its config, who runs it, where the user is, the mode. */
type ReplayContext = { project: ConfiguredProject; runner: ReplayRunner; cwd: string; mode: 'replay' };

async function replayOne(
  path: string,
  shown: string,
  context: ReplayContext,
  given: { match: MatchLevel | undefined; runTools: RunToolsChoice | undefined },
): Promise<Verdict> {
  const loaded = loadFile(path, shown);
  if (!loaded.ok) {
    return { ok: false, detail: loaded.problem, unreadable: true, notRead: loaded.notRead, code: loaded.code };
  }
  const trajectory = loaded.trajectory;
  if (trajectory.boundary === 'http') {
    const detail =
      `${shown} was recorded at the HTTP boundary (legate/intercept): no agent of legate.config.ts made it, so ` +
      'it replays in the test that recorded it (interceptAnthropic in replay mode), not here. Keep such files in ' +
      'a folder legate replay does not read.';
    return { ok: false, detail, trajectory };
  }
  try {
    const agentName = loaded.trajectory.agent;
    const agents = context.project.config.agents ?? {};
    const factory = agents[agentName];
    if (factory === undefined) {
      const exported =
        Object.keys(agents)
          .map((n) => `'${n}'`)
          .join(', ') || 'no agents';
      const detail =
        `${shown} names agent '${agentName}', which legate.config.ts does not export; it exports ${exported}. ` +
        `Add a factory for it: agents: { ${agentName}: (transport) => yourAgent(transport) }.`;
      return { ok: false, detail, code: 'unknown_agent', trajectory };
    }
    // The other settings (the config's redactions, match, runTools and transport; the file's match and
    // serve) resolve in runTrajectory. The verdict line says what changed: no report.
    const run = await runTrajectory({
      ...context,
      file: path,
      agent: factory,
      ...(given.match === undefined ? {} : { match: given.match }),
      ...(given.runTools === undefined ? {} : { runTools: given.runTools }),
      report: false,
    });
    return { ok: true, detail: describeRun(run), trajectory };
  } catch (error) {
    // A setting that fails every file alike (no API key, nothing at the URL while recording) stops the command:
    // one line naming the setting, exit 2, as any other bad input.
    if (error instanceof TransportError && error.setting !== undefined) throw error;
    if (error instanceof TrajectoryDivergenceError) {
      const message = error.message.replaceAll(path, shown);
      const { kind, turn, expected, actual } = error;
      const divergence = { kind, turn, path: error.path ?? '', expected, actual, message };
      return { ok: false, detail: message, code: error.code, trajectory, divergence };
    }
    if (error instanceof TrajectoryFormatError) {
      return { ok: false, detail: error.message.replaceAll(path, shown), code: error.code, trajectory };
    }
    return { ok: false, detail: describeError(error), code: errorCode(error), trajectory };
  }
}

function describeRun(run: TrajectoryRun): string {
  const { result } = run;
  const facts = [`${result.turns} turn${result.turns === 1 ? '' : 's'}, ${result.stopReason}`];
  // The safety facts a reviewer looks for first: what was refused and why, taint, a pending approval.
  for (const call of result.blocked) {
    facts.push(`blocked ${call.tool} (${call.rule}${call.source === undefined ? '' : ` from ${call.source}`})`);
  }
  if (result.tainted) facts.push(`tainted by ${result.taintSource ?? 'an untrusted tool'}`);
  if (result.suspension !== undefined) facts.push('suspended for approval');
  // What the replay did not run, so nobody mistakes a served payment for one made.
  const served = [...new Set((run.served ?? []).map((call) => call.tool))];
  if (served.length > 0) facts.push(`served ${served.join(', ')} from the recording`);
  if (run.mode === 'record') {
    facts.push(`recorded (${run.changes === undefined ? 'new' : summarizeChanges(run.changes)})`);
  }
  return facts.join('; ');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
