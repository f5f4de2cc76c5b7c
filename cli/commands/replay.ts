import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import {
  isMatchLevel,
  loadProject,
  MATCH_LEVELS,
  resolveReplaySettings,
  RUN_TOOLS_CHOICES,
  type MatchLevel,
  type ReplayRunner,
  type RunToolsChoice,
  type SampleRule,
} from '../../src/index.js';
import { loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import { terminalText } from '../terminalText.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../parseOptions.js';
import { parsePass, parseSamples } from '../sampleOptions.js';
import { mergeReports } from '../replay/mergeReports.js';
import { replayOne, type ReplayContext, type ReplayGiven } from '../replay/replayFile.js';
import { corpusKey, parseShard, shardFiles, type Shard } from '../replay/shard.js';
import { VerdictLog } from '../replay/verdictLog.js';
import { replayInWorkers, WorkerSettingError, type Replayed } from '../replay/workerPool.js';
import { ReplayReport } from '../replay/replayReport.js';

export const replayHelp = `legate replay [paths...] [--match ${MATCH_LEVELS.join('|')}] [--config file] [--bail]
              [--run-tools ${RUN_TOOLS_CHOICES.join('|')}] [--reporter junit|html|blob --output file|-]
              [--workers N] [--shard i/n] [--record [--samples k]] [--pass all|m|r%] [--flakiness]
legate replay --merge-reports <blob files or a folder> [--reporter junit|html --output file|-]

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

--workers N replays on N threads: this one and N-1 worker threads (--workers 1: this thread
alone). This thread replays from the first file while the workers start (each loads the config
itself), so a worker costs only its start, on another core. The default is one more thread per
16 MB of trajectory files, up to the number of cores. The verdict lines, their order, the summary,
--bail, the reports and the exit code are those of one thread; a worker that dies gives the file
it was replaying an error line, and another thread replays the rest.

--shard i/n replays the i-th of n slices of the files (1 ≤ i ≤ n), decided from their paths
relative to the project, so every machine agrees and each file is in one shard. A shard with no
files exits 0. --reporter blob --output shard-1.json writes the shard's results; then
--merge-reports shard-1.json shard-2.json ... (or their folder) prints the verdicts, summary and
exit code of one unsharded run, and writes its junit or html report. Blobs of other corpora,
options or legate versions, a shard missing or given twice are refused (exit 2).

With LEGATE_MODE=record (or --record) the same command re-records the files live instead; --samples k
records each k times, each run a sample of its own in the file. A file of several samples replays each one and
passes by --pass (else the config's pass): all of them (the default), at least m, or at least r%. --flakiness
prints, after the summary, each such file's samples: how many, how many passed, which failed.`;

export async function replay(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = replayOptions(args);
  const runTools = values['run-tools'];
  if (runTools !== undefined && !(RUN_TOOLS_CHOICES as readonly string[]).includes(runTools)) {
    io.err(`legate replay: --run-tools must be one of ${RUN_TOOLS_CHOICES.join(', ')}, but it was '${runTools}'.`);
    return 2;
  }
  if (values.match !== undefined && !isMatchLevel(values.match)) {
    io.err(`legate replay: --match must be one of ${MATCH_LEVELS.join(', ')}, but it was '${values.match}'.`);
    return 2;
  }
  const workers = values.workers === undefined ? undefined : parseWorkers(values.workers);
  if (typeof workers === 'string') {
    io.err(`legate replay: ${workers}`);
    return 2;
  }
  const samples = values.samples === undefined ? undefined : parseSamples(values.samples);
  const pass = values.pass === undefined ? undefined : parsePass(values.pass);
  if (samples !== undefined && 'problem' in samples) {
    io.err(`legate replay: ${samples.problem}`);
    return 2;
  }
  if (pass !== undefined && 'problem' in pass) {
    io.err(`legate replay: ${pass.problem}`);
    return 2;
  }
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (typeof shard === 'string') {
    io.err(`legate replay: ${shard}`);
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
  // The report's scratch file (an html page's sections set aside) goes, however the replay ends.
  try {
    const sampling = { samples: samples?.value, pass: pass?.value };
    return await replayCorpus({ values, positionals, runTools, workers, shard, report, ...sampling }, io);
  } finally {
    report.dispose();
  }
}

/** What `replay` read from its arguments, checked. */
interface ReplayArguments {
  values: ReturnType<typeof replayOptions>['values'];
  positionals: string[];
  runTools: string | undefined;
  workers: number | undefined;
  shard: Shard | undefined;
  report: ReplayReport;
  samples: number | undefined;
  pass: SampleRule | undefined;
}

/** Merges the shards' blobs, or replays the files the arguments name and reports each verdict: the exit code. */
async function replayCorpus(
  { values, positionals, runTools, workers, shard, report, samples, pass }: ReplayArguments,
  io: CliIo,
): Promise<number> {
  const merge = values['merge-reports'];
  if (merge !== undefined) {
    const replaying = ['match', 'config', 'bail', 'run-tools', 'workers', 'shard', 'record', 'samples', 'pass'].filter(
      (name) => values[name as keyof typeof values] !== undefined,
    );
    if (replaying.length > 0 || report.isBlob()) {
      const given = report.isBlob() ? [...replaying, 'reporter blob'] : replaying;
      io.err(
        `legate replay: --merge-reports merges the shards' blobs and replays nothing, so it takes no ` +
          `--${given.join(', --')}; give those to the shards' runs.`,
      );
      return 2;
    }
    return mergeReports([merge, ...positionals], report, io, { flakiness: values.flakiness === true });
  }
  const config = values.config === undefined ? {} : { config: values.config };
  const project = await loadProject({ cwd: io.cwd, requireConfig: true, ...config });
  const runner: ReplayRunner = { kind: 'cli', ...config };
  // `replay` unless LEGATE_MODE says otherwise (it wins over a mode given, see resolveMode).
  const context: ReplayContext = { project, runner, cwd: io.cwd };
  const given: ReplayGiven = {
    match: values.match as MatchLevel | undefined,
    runTools: runTools as RunToolsChoice | undefined,
    ...(values.record === true ? { record: true as const } : {}),
    ...(samples === undefined ? {} : { samples }),
    ...(pass === undefined ? {} : { pass }),
  };
  const { folder, mode } = resolveReplaySettings({
    project,
    runner,
    cwd: io.cwd,
    given: { mode: given.record === true ? 'record' : 'replay' },
  });
  const paths = positionals.length > 0 ? positionals.map((p) => resolve(io.cwd, p)) : [folder];
  const found = findTrajectories(paths, io.cwd);
  const { missing, unreadable } = found;
  for (const path of missing) io.err(`legate replay: ${missingProblem(path)}`);
  for (const problem of unreadable) io.err(`legate replay: ${problem}`);
  for (const path of missing) report.pathProblem(path, 'not_found', missingProblem(path));
  for (const problem of unreadable) report.pathProblem(problem.slice(0, problem.indexOf(': ')), 'unreadable', problem);
  if (found.files.length === 0) {
    if (missing.length + unreadable.length > 0) return report.finish(2, io); // each path given already has its line
    const shown = paths.map((p) => terminalText(relative(io.cwd, p) || p));
    io.err(
      `legate replay: no trajectory files (*.yaml) under ${shown.join(', ')}; ` +
        'give a file or a folder that holds some.',
    );
    return report.finish(2, io);
  }
  const verb = mode === 'record' ? 'recorded' : 'replayed';
  const bail = values.bail === true;
  const settings = { bail, verb, ...given, ...config };
  report.describeRun({ corpus: found.files, shard: shard ?? { index: 1, count: 1 }, settings, problems: found });
  const files = shard === undefined ? found.files : shardOf(found.files, shard, io.cwd, project.root);
  if (files.length === 0) {
    io.err(
      `legate replay: shard ${shard!.index}/${shard!.count} has no files (the corpus has ${found.files.length}); ` +
        'nothing to replay.',
    );
    return report.finish(0, io);
  }
  const threads = Math.min(workers ?? defaultWorkers(files, io.cwd), files.length);
  const setup = { cwd: io.cwd, config: values.config, given, wantTrajectories: report.wantsTrajectories() };
  const here = (file: string) => replayHere(file, context, given);
  const replayed = threads > 1 ? replayInWorkers(files, threads, setup, here) : inProcess(files, here);
  const log = new VerdictLog(io, report, { flakiness: values.flakiness === true });
  let run = 0;
  try {
    for await (const { file, verdict, seconds } of replayed) {
      log.file(file, verdict, seconds);
      run++;
      if (!verdict.ok && bail) break;
    }
  } catch (error) {
    // A setting that fails every file alike, met in a worker: one line, exit 2, as when it is met here.
    if (!(error instanceof WorkerSettingError)) throw error;
    io.err(`legate replay: ${error.line}`);
    return 2;
  }
  for (const file of files.slice(run)) {
    const loaded = report.wantsTrajectories() ? loadFile(resolve(io.cwd, file), file) : undefined;
    report.skipped(file, loaded?.ok === true ? loaded.trajectory : undefined);
  }
  return log.finish(verb, found, { afterBail: files.length - run });
}

/** The files replayed in this thread, one after another, as `--workers 1` does. */
async function* inProcess(files: string[], here: (file: string) => Promise<Replayed>): AsyncGenerator<Replayed> {
  for (const file of files) yield await here(file);
}

/** A file replayed in this thread: its verdict, and how long it took. */
async function replayHere(file: string, context: ReplayContext, given: ReplayGiven): Promise<Replayed> {
  const started = performance.now();
  const verdict = await replayOne(resolve(context.cwd, file), file, context, given);
  return { file, verdict, seconds: (performance.now() - started) / 1000 };
}

/** The files of the shard, decided from their paths relative to the project root (the same on every machine). */
function shardOf(files: string[], shard: Shard, cwd: string, root: string): string[] {
  return shardFiles(files, (file) => corpusKey(file, cwd, root), shard);
}

/**
 * Bytes of trajectory files that repay one more thread, for the default. Every thread takes files from the first on,
 * so a worker costs the command no waiting; but its start (loading legate and the config, warming its own JIT
 * compiler: about 1.3 s of CPU on the bench machine) takes a core, and on two cores the command's one thread
 * already keeps the second busy part of the time (V8 compiles and collects garbage on threads of its own: 1.45
 * cores in use at 1,000 files), and two replays side by side each run about 1.5 times slower there than alone.
 * Measured on the bench machine's two idle cores, two threads break even at about 2,000 of the bench's 10-turn
 * files (5.3 KB each) and gain from 4,000 (1.03x the rate; 1.04-1.33x at 8,000 in two bench runs), hence 16 MB
 * (about 3,000 files); docs/scale.md has the figures, which `npm run bench -- workers` measures again.
 */
const BYTES_PER_EXTRA_THREAD = 16 * 1024 * 1024;

/** --workers' default: this thread, and one more per BYTES_PER_EXTRA_THREAD of files, up to the cores. */
function defaultWorkers(files: readonly string[], cwd: string): number {
  let bytes = 0;
  for (const file of files) bytes += fileSize(resolve(cwd, file));
  return Math.max(1, Math.min(availableParallelism(), 1 + Math.floor(bytes / BYTES_PER_EXTRA_THREAD)));
}

/** A file's size, or 0 when it cannot be read (its verdict says why). */
function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The number of worker threads --workers asks for, or the one-line problem with it. */
function parseWorkers(text: string): number | string {
  const count = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(count) && count >= 1) return count;
  return `--workers must be a whole number of worker threads, at least 1 (e.g. --workers 4), but it was '${text}'.`;
}

/** `legate replay`'s options, parsed. */
function replayOptions(args: string[]) {
  return parseOptions({
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
      workers: { type: 'string' },
      shard: { type: 'string' },
      'merge-reports': { type: 'string' },
      record: { type: 'boolean' },
      samples: { type: 'string' },
      pass: { type: 'string' },
      flakiness: { type: 'boolean' },
    },
  });
}
