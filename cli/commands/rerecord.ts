import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  configShown,
  loadProject,
  rerecordTrajectory,
  resolveReplaySettings,
  TransportError,
  type ConfiguredProject,
  type ReplayRunner,
} from '../../src/index.js';
import { describeError } from '../describeError.js';
import { loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../parseOptions.js';
import { describeRun } from '../replay/replayFile.js';
import { parseSamples } from '../sampleOptions.js';
import { terminalText } from '../terminalText.js';

export const rerecordHelp = `legate rerecord [paths...] --out <folder> [--model id] [--samples k] [--config file]
                [--force]

Records each trajectory's input again, live, with the same agent (the config's factory for the
file's agent), into a new folder: <out>/<the file's path relative to the folder given> (a file
given goes to <out>/<its name>). The old files are only read. Then compare the two with
legate compare <old> <out>.

The live model is the config's transport, else the Anthropic API (ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL). Where an old run stopped for approval, its recorded decisions are applied
again, by tool in order; a call it holds no decision on is denied.

--model <id>  every request goes out with this model instead of the agent's, sub-agents' too.
              The new file records the requests as the agent made them, so it replays with the
              agent as it is; its model: and each response's model say which model answered.
--samples k   record k runs of each input into its file (a whole number from 1 to 100; default: the
              config's samples, else 1).
--force       replace files already in --out (without it, an existing file is refused before
              anything is recorded).

Paths default to the config's trajectories folder. One line per file, then a summary. Exit
codes: 0 every file recorded; 1 a file could not be recorded (its line says why); 2 bad input:
no --out, an --out that is a source folder or inside one, or would write onto a source file,
a file already there without --force, a missing path, an unusable config or option, or a
setting the live API needs.`;

/** A file to record again: the old one (as shown, from cwd) and the new one (absolute, and as shown). */
interface Job {
  source: string;
  target: string;
  targetShown: string;
}

export async function rerecord(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      model: { type: 'string' },
      samples: { type: 'string' },
      config: { type: 'string' },
      force: { type: 'boolean' },
    },
  });
  const fail = (problem: string) => {
    io.err(`legate rerecord: ${problem}`);
    return 2;
  };
  if (values.out === undefined || values.out === '')
    return fail('give the folder to write the new files to, e.g. legate rerecord trajectories --out rerecorded');
  if (values.model !== undefined && values.model.trim() === '')
    return fail('--model needs a model id, e.g. --model claude-sonnet-4-5');
  const parsed = values.samples === undefined ? undefined : parseSamples(values.samples);
  if (parsed !== undefined && 'problem' in parsed) return fail(parsed.problem);
  const samples = parsed?.value;
  const config = values.config === undefined ? {} : { config: values.config };
  const project = await loadProject({ cwd: io.cwd, requireConfig: true, ...config });
  const runner: ReplayRunner = { kind: 'cli', ...config };
  // Resolved once before anything is written.
  const given = samples === undefined ? {} : { samples };
  const { folder } = resolveReplaySettings({ project, runner, cwd: io.cwd, given });
  const paths = positionals.length > 0 ? positionals.map((p) => resolve(io.cwd, p)) : [folder];
  const out = resolve(io.cwd, values.out);
  if (kindOf(out) === 'file')
    return fail(`--out ${terminalText(values.out)} is a file; give the folder to write the new files to.`);
  const jobs = plan(paths, out, values.out, values.force === true, io.cwd);
  if (typeof jobs === 'string') return fail(jobs);
  mkdirSync(out, { recursive: true });
  let recorded = 0;
  for (const job of jobs) {
    const line = await recordOne(job, { project, runner, cwd: io.cwd, model: values.model, samples }, io);
    if (line.ok) recorded++;
    io.out(`${line.ok ? io.paint('green', '✓') : io.paint('red', '✗')} ${line.text}`);
  }
  const into = terminalText(values.out);
  const model = values.model === undefined ? '' : ` (model ${terminalText(values.model)})`;
  const failed = jobs.length - recorded;
  io.out('');
  io.out(
    failed === 0
      ? `recorded ${jobs.length} file${jobs.length === 1 ? '' : 's'} again into ${into}${model}`
      : `recorded ${recorded} of ${jobs.length} files again into ${into}${model}; ${failed} could not be recorded`,
  );
  return failed === 0 ? 0 : 1;
}

/**
 * The files to record and where each goes, checked before anything is recorded; or the one-line problem: a path
 * missing, an --out that is (or is inside) a folder read, or that would write onto a file read, two files for one
 * target, targets already there without --force.
 */
function plan(paths: string[], out: string, outShown: string, force: boolean, cwd: string): Job[] | string {
  const shown = (path: string) => terminalText(relative(cwd, path) || path);
  const jobs: Job[] = [];
  const problems: string[] = [];
  for (const path of paths) {
    const found = findTrajectories([path], cwd);
    problems.push(...found.missing.map(missingProblem), ...found.unreadable);
    const isFolder = found.missing.length === 0 && kindOf(path) === 'folder';
    if (isFolder && (out === path || out.startsWith(`${path}${sep}`)))
      return (
        `--out ${terminalText(outShown)} is ${out === path ? '' : 'inside '}${shown(path)}, which it reads: the new ` +
        'files would be read as old ones; give a folder outside it.'
      );
    for (const file of found.files) {
      const source = resolve(cwd, file);
      const target = isFolder ? join(out, relative(path, source)) : join(out, basename(source));
      jobs.push({ source: file, target, targetShown: relative(cwd, target) || target });
    }
  }
  if (problems.length > 0) return problems.join('; ');
  const where = paths.map(shown).join(', ');
  if (jobs.length === 0) return `no trajectory files (*.yaml) under ${where}; give a file or a folder that holds some.`;
  const sources = new Set(jobs.map((job) => real(resolve(cwd, job.source))));
  const byTarget = new Map<string, Job>();
  for (const job of jobs) {
    if (sources.has(real(job.target)))
      return (
        `--out ${terminalText(outShown)} would write ${shown(job.target)} over a file it reads; give a folder that ` +
        'holds none of them.'
      );
    const other = byTarget.get(job.target);
    if (other !== undefined)
      return (
        `${terminalText(other.source)} and ${terminalText(job.source)} would both be written to ` +
        `${shown(job.target)}; record them into different folders.`
      );
    byTarget.set(job.target, job);
  }
  const existing = jobs.filter((job) => exists(job.target));
  if (existing.length > 0 && !force) {
    const more = existing.length === 1 ? '' : ` (and ${existing.length - 1} more)`;
    return (
      `${shown(existing[0]!.target)} already exists${more}; nothing was recorded. Give another --out, or ` +
      '--force to replace them.'
    );
  }
  return jobs;
}

/** The path with its symbolic links resolved, where it exists (a target not yet written is itself). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return isAbsolute(path) ? path : resolve(path);
  }
}

function exists(path: string): boolean {
  return kindOf(path) !== 'missing';
}

function kindOf(path: string): 'folder' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

interface RecordContext {
  project: ConfiguredProject;
  runner: ReplayRunner;
  cwd: string;
  model: string | undefined;
  samples: number | undefined;
}

/** Records one file again: its line, `old → new: what the run did`, or why it could not be recorded. */
async function recordOne(job: Job, context: RecordContext, io: CliIo): Promise<{ ok: boolean; text: string }> {
  const { project, runner, cwd } = context;
  const arrow = `${terminalText(job.source)} → ${terminalText(job.targetShown)}`;
  const loaded = loadFile(resolve(cwd, job.source), job.source);
  if (!loaded.ok) return { ok: false, text: loaded.problem };
  const from = loaded.trajectory;
  const config = configShown(project, cwd);
  if (from.boundary === 'http')
    return {
      ok: false,
      text:
        `${arrow}: recorded at the HTTP boundary (legate/intercept): no agent of ${config} made it, so it is ` +
        'recorded again by the test that recorded it, not here.',
    };
  const agents = project.config.agents ?? {};
  const agent = agents[from.agent];
  if (agent === undefined) {
    const exported =
      Object.keys(agents)
        .map((name) => `'${terminalText(name)}'`)
        .join(', ') || 'no agents';
    return {
      ok: false,
      text:
        `${arrow}: names agent '${terminalText(from.agent)}', which ${config} does not export; it exports ` +
        `${exported}.`,
    };
  }
  const settings = resolveReplaySettings({
    given: { file: job.target, mode: 'record', ...(context.samples === undefined ? {} : { samples: context.samples }) },
    project,
    trajectory: from,
    runner,
    cwd,
    shown: terminalText(job.targetShown),
  });
  mkdirSync(dirname(job.target), { recursive: true });
  try {
    const run = await rerecordTrajectory({
      from,
      file: job.target,
      agent,
      settings,
      ...(context.model === undefined ? {} : { model: context.model }),
      report: (message) => io.err(`legate rerecord: ${terminalText(message)}`),
    });
    // Said as a live run is: what it did. What changed against the old file is legate compare's to say.
    return { ok: true, text: `${arrow}: ${describeRun({ ...run, mode: 'passthrough' }, context.cwd)}` };
  } catch (error) {
    // A setting that fails every file alike (no API key, nothing at the URL) stops the command: one line, exit 2.
    if (error instanceof TransportError && error.setting !== undefined) throw error;
    return { ok: false, text: `${arrow}: ${describeError(error)}` };
  }
}
