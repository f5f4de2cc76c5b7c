import {
  configShown,
  resolveReplaySettings,
  runTrajectory,
  SamplesFailedError,
  summarizeChanges,
  TrajectoryDivergenceError,
  TrajectoryFormatError,
  TransportError,
  type ConfiguredProject,
  type MatchLevel,
  type ReplayRunner,
  type RunToolsChoice,
  type SampleRule,
  type SampleVerdict,
  type TrajectoryRun,
} from '../../src/index.js';
import { relative } from 'node:path';
import { describeError } from '../describeError.js';
import { errorCode, loadFile } from '../fileProblem.js';
import { terminalText } from '../terminalText.js';
import type { Verdict } from './fileVerdict.js';

/** The options given on the command line that every file's replay takes. */
export type ReplayGiven = {
  match: MatchLevel | undefined;
  runTools: RunToolsChoice | undefined;
  /** --record: record the files live (LEGATE_MODE still wins). */
  record?: true;
  /** --samples: how many samples each recording makes. */
  samples?: number;
  /** --pass: when a file of several samples passes. */
  pass?: SampleRule;
};

/** What every file's run shares: the project and its config, who runs it, where the user is, the mode. */
export type ReplayContext = { project: ConfiguredProject; runner: ReplayRunner; cwd: string };

export async function replayOne(
  path: string,
  file: string,
  context: ReplayContext,
  given: ReplayGiven,
): Promise<Verdict> {
  const loaded = loadFile(path, file);
  // What a verdict quotes of the file (its name, its agent) is escaped, line breaks too: it stays on its line.
  const shown = terminalText(file);
  const config = configShown(context.project, context.cwd);
  if (!loaded.ok) {
    return { ok: false, detail: loaded.problem, unreadable: true, notRead: loaded.notRead, code: loaded.code };
  }
  const trajectory = loaded.trajectory;
  if (trajectory.boundary === 'http') {
    const detail =
      `${shown} was recorded at the HTTP boundary (legate/intercept): no agent of ${config} made it, so ` +
      'it replays in the test that recorded it (interceptAnthropic in replay mode), not here. Keep such files in ' +
      'a folder legate replay does not read.';
    return { ok: false, detail, trajectory };
  }
  try {
    const agentName = loaded.trajectory.agent;
    const named = terminalText(agentName);
    const agents = context.project.config.agents ?? {};
    const factory = agents[agentName];
    if (factory === undefined) {
      const exported =
        Object.keys(agents)
          .map((n) => `'${terminalText(n)}'`)
          .join(', ') || 'no agents';
      const detail =
        `${shown} names agent '${named}', which ${config} does not export; it exports ${exported}. ` +
        `Add a factory for it: agents: { ${named}: (transport) => yourAgent(transport) }.`;
      return { ok: false, detail, code: 'unknown_agent', trajectory };
    }
    // Every setting resolved once, the file's own fields counted (its match and serve), and the file as this
    // command shows it in every message. The verdict line says what changed: no report.
    const settings = resolveReplaySettings({
      given: {
        file: path,
        mode: given.record === true ? 'record' : 'replay',
        ...(given.match === undefined ? {} : { match: given.match }),
        ...(given.runTools === undefined ? {} : { runTools: given.runTools }),
        ...(given.samples === undefined ? {} : { samples: given.samples }),
        ...(given.pass === undefined ? {} : { pass: given.pass }),
      },
      project: context.project,
      trajectory,
      runner: context.runner,
      cwd: context.cwd,
      shown,
    });
    const run = await runTrajectory({ file: path, agent: factory, trajectory, settings, report: false });
    const samples = run.samples === undefined ? {} : { samples: sampleCounts(run.samples) };
    return { ok: true, detail: describeRun(run, context.cwd), trajectory: run.trajectory ?? trajectory, ...samples };
  } catch (error) {
    // A setting that fails every file alike (no API key, nothing at the URL while recording) stops the command:
    // one line naming the setting, exit 2, as any other bad input.
    if (error instanceof TransportError && error.setting !== undefined) throw error;
    if (error instanceof TrajectoryDivergenceError) {
      const { kind, turn, expected, actual, message } = error;
      const divergence = { kind, turn, path: error.path ?? '', expected, actual, message };
      return { ok: false, detail: message, code: error.code, trajectory, divergence };
    }
    if (error instanceof SamplesFailedError) {
      const samples = sampleCounts(error.samples);
      return { ok: false, detail: error.message, code: error.code, trajectory, samples };
    }
    if (error instanceof TrajectoryFormatError)
      return { ok: false, detail: error.message, code: error.code, trajectory };
    return { ok: false, detail: describeError(error), code: errorCode(error), trajectory };
  }
}

/** How many of a file's samples passed, and which failed: what the verdict line and the flakiness table show. */
function sampleCounts(samples: readonly SampleVerdict[]): NonNullable<Verdict['samples']> {
  const failed = samples.filter((s) => !s.passed).map((s) => s.sample);
  return { total: samples.length, passed: samples.length - failed.length, failed };
}

/** A run's verdict line: its turns and stop reason, what was refused and why, taint, what was served. */
export function describeRun(run: TrajectoryRun, cwd: string): string {
  const { result } = run;
  const facts = [`${result.turns} turn${result.turns === 1 ? '' : 's'}, ${result.stopReason}`];
  // Several samples: the figure first; the facts that follow are the first passing sample's.
  if (run.samples !== undefined) {
    const { passed, total } = sampleCounts(run.samples);
    facts.unshift(`${passed}/${total} samples passed`);
  }
  // The safety facts a reviewer looks for first: what was refused and why, taint, a pending approval.
  for (const call of result.blocked) {
    facts.push(`blocked ${call.tool} (${call.rule}${call.source === undefined ? '' : ` from ${call.source}`})`);
  }
  if (result.tainted) facts.push(`tainted by ${result.taintSource ?? 'an untrusted tool'}`);
  if (result.suspension !== undefined) facts.push('suspended for approval');
  // What the replay did not run, so nobody mistakes a served payment for one made.
  const served = [...new Set((run.served ?? []).map((call) => call.tool))];
  if (served.length > 0) facts.push(`served ${served.join(', ')} from the recording`);
  // A fork replays on its own; its parent changed or gone since is said, not failed.
  if (run.fork !== undefined) {
    const { parent, turn, sample, parentState } = run.fork;
    const of = `${sample === 1 ? '' : `sample ${sample} of `}${terminalText(relative(cwd, parent) || parent)}`;
    const since = {
      same: '',
      changed: ', which changed since',
      missing: ', which is gone',
      unreadable: ', unreadable',
    };
    facts.push(`fork of ${of} at turn ${turn}${since[parentState]}`);
  }
  if (run.mode === 'record') {
    facts.push(`recorded (${run.changes === undefined ? 'new' : summarizeChanges(run.changes)})`);
  }
  return facts.join('; ');
}
