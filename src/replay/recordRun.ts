import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { UserBlock } from '../messages/types.js';
import { postureToolsReachableFrom, serverToolsReachableFrom } from '../runtime/agentGraph.js';
import type { AgentResult } from '../runtime/agentResult.js';
import { StructuredOutputError } from '../runtime/structuredOutputError.js';
import { RecordingTransport } from '../transport/recording/RecordingTransport.js';
import { fromRun, type RunRecord } from '../recording/fromRun.js';
import { recordingClock } from '../recording/recordedClock.js';
import { sdkVersion } from '../recording/sdkVersion.js';
import { diffTrajectories, summarizeChanges } from '../trajectory/diffTrajectories.js';
import { callsWithRedactedInput } from '../trajectory/redactedInputs.js';
import { loadTrajectory, prepareTrajectory, saveTrajectory } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';
import { samplesOf, withSamples } from '../trajectory/samplesOf.js';
import { UsageError } from '../errors/UsageError.js';
import { createRedactor } from '../trajectory/redaction.js';
import { forkOrigin, loadForkedPart, type ForkedPart } from './forkedPart.js';
import type { ForkOfRun } from './forkParentState.js';
import type { ForkSettings } from './forkSettings.js';
import { ForkTransport } from './ForkTransport.js';
import { recordedDecisions } from './recordedDecisions.js';
import type { ReplaySettings } from './replaySettings.js';
import type { SampleVerdict } from './samplesFailedError.js';
import { checkRuleFits, concludeSamples, judgeSample } from './sampleRuns.js';
import { tell } from './tell.js';
import { outputOption, type TrajectoryRun, type TrajectoryRunOptions } from './trajectoryRunOptions.js';

/** What a recording runs over: its file, absolute and as shown, and its settings (see resolveRun). */
interface Recording {
  file: string;
  shown: string;
  settings: ReplaySettings;
  /** The settings once the file is read: its own fields count (a fork recorded again forks again). */
  settingsFor: (trajectory: Trajectory) => ReplaySettings;
  /** A fork's parent, read already by the caller (else it is read from its file). */
  parent?: Trajectory;
}

/**
 * Runs the agent live and records the run to its file: atomically, redacted, scanned for secrets. With `samples: k`
 * the run is made k times, each a sample of its own in the one file; the test's `check` runs on each, and the file
 * passes by the rule in force (`pass`). The file is saved whatever the samples did: it records the model. A fork
 * (the settings' `fork`) serves its parent's first turns first, as a replay does, and records them with the live
 * ones (each sample forks again). With `write: false` (passthrough), nothing is written.
 */
export async function recordRun(
  options: TrajectoryRunOptions,
  recording: Recording,
  how: { write: boolean },
): Promise<TrajectoryRun> {
  const { file, shown } = recording;
  const previous = options.trajectory ?? (existsSync(file) ? tryLoad(file) : undefined);
  const settings = previous === undefined ? recording.settings : recording.settingsFor(previous);
  const fork = settings.fork === undefined ? undefined : loadForkedPart(settings.fork, shown, recording.parent);
  // A fork's input is its parent's: the first request is compared with the parent's.
  const input = fork?.run.input ?? requireInput(options, shown, previous);
  const name = options.name ?? previous?.name ?? basename(file, extname(file));
  const description = options.description ?? previous?.description;
  const total = settings.samples;
  checkRuleFits(settings.pass, total, shown);
  const made: RecordedSample[] = [];
  const verdicts: SampleVerdict[] = [];
  for (let sample = 1; sample <= total; sample++) {
    const at = { sample, of: total };
    const run = async () => {
      const one = await recordSample(options, settings, shown, { input, name, description, fork, file });
      made.push(one);
      if (one.refusedAnswer !== undefined) throw one.refusedAnswer;
      return one;
    };
    // A run that threw has no sample to keep, and fails the recording; a refused answer is kept, then thrown.
    const kept = () => (made.length === sample ? made[sample - 1]!.trajectory : undefined);
    verdicts.push(await judgeSample(at, kept, run, options.check));
  }
  const { fork: forkSettings } = settings;
  const forkOf: ForkOfRun | undefined =
    forkSettings === undefined
      ? undefined
      : { parent: forkSettings.parent, turn: forkSettings.turn, sample: forkSettings.sample, parentState: 'same' };
  // The file is saved whatever the samples did; then a failure is thrown: one sample's as it is (its check's, or
  // the refused answer), several samples' as the rule's.
  const { chosen, failure } = conclude(shown, settings.pass, verdicts);
  const served = { served: made[chosen.sample - 1]!.served };
  const several = total === 1 ? {} : { samples: verdicts };
  if (!how.write) {
    if (failure !== undefined) throw failure.error;
    const result = chosen.result!;
    return {
      mode: 'passthrough',
      file,
      result,
      ...served,
      ...several,
      ...(forkOf === undefined ? {} : { fork: forkOf }),
    };
  }
  const trajectory = withSamples(made.map((one) => one.trajectory));
  const saveOptions = { redactions: settings.redactions, secrets: settings.secrets };
  const redacted = prepareTrajectory(trajectory, saveOptions);
  const changes = previous === undefined ? undefined : diffTrajectories(previous, redacted);
  // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
  const saved =
    changes !== undefined && changes.length === 0 ? previous! : saveTrajectory(file, trajectory, saveOptions);
  for (const [i, sample] of samplesOf(redacted).entries()) {
    const of = total === 1 ? '' : ` (sample ${i + 1})`;
    for (const call of callsWithRedactedInput(sample.turns)) {
      tell(
        options,
        `recorded ${shown}: a redaction changed the input of call ${call.id} ('${call.tool}')${of}, so a replay ` +
          'serves its recorded result instead of running the tool with the placeholder.',
      );
    }
  }
  if (changes !== undefined && changes.length > 0) tell(options, `re-recorded ${shown}: ${summarizeChanges(changes)}`);
  if (failure !== undefined) throw failure.error;
  const run: TrajectoryRun = { mode: 'record', file, result: chosen.result!, trajectory: saved, ...served, ...several };
  if (changes !== undefined) run.changes = changes;
  if (forkOf !== undefined) run.fork = forkOf;
  return run;
}

/** The sample whose run the recording returns, and the failure to throw once the file is saved, if any. */
function conclude(
  shown: string,
  rule: ReplaySettings['pass'],
  verdicts: SampleVerdict[],
): { chosen: SampleVerdict; failure?: { error: unknown } } {
  const first = verdicts[0]!;
  if (verdicts.length === 1)
    return first.passed ? { chosen: first } : { chosen: first, failure: { error: first.error } };
  try {
    return { chosen: concludeSamples(shown, rule, verdicts) };
  } catch (error) {
    return { chosen: verdicts.find((v) => v.result !== undefined) ?? first, failure: { error } };
  }
}

/** One live run made into a trajectory (not yet redacted): its result, and its answer if the output schema refused it.
 */
interface RecordedSample {
  result: AgentResult;
  trajectory: Trajectory;
  served: { id: string; tool: string }[];
  refusedAnswer?: StructuredOutputError;
}

/** What every sample of a recording shares: its input, its file's name and description, the fork it makes. */
interface SampleSetting {
  input: string | UserBlock[];
  name: string;
  description: string | undefined;
  fork: ForkedPart | undefined;
  file: string;
}

async function recordSample(
  options: TrajectoryRunOptions,
  settings: ReplaySettings,
  shown: string,
  shared: SampleSetting,
): Promise<RecordedSample> {
  const { fork, input } = shared;
  const live = settings.transport();
  const forked =
    fork === undefined
      ? undefined
      : new ForkTransport(fork, live, {
          file: `${settings.fork!.parentShown} (the turns forked into ${shown})`,
          match: settings.match,
          redact: createRedactor(settings.redactions),
          rerecord: settings.fork!.rerecord,
          runTools: settings.runTools,
        });
  const transport = new RecordingTransport(forked ?? live);
  const agent = options.agent(transport);
  const clock = recordingClock(forked?.clock(agent.clock) ?? agent.clock);
  const recordedAt = new Date();
  const stub = {
    ...(options.toolStub === undefined ? {} : { toolStub: options.toolStub }),
    ...(forked === undefined ? {} : { replay: forked.referee }),
    ...outputOption(options),
  };
  // A run whose answer the output schema refuses is recorded too (its replay refuses it the same way), then thrown.
  let refusedAnswer: StructuredOutputError | undefined;
  const finished = (run: Promise<AgentResult>) =>
    run.catch((error: unknown) => {
      if (!(error instanceof StructuredOutputError)) throw error;
      refusedAnswer = error;
      return error.result;
    });
  // A suspension in the forked turns is decided as the parent recorded; a later one by `approve`, if given.
  const decisions = async (result: AgentResult) => {
    if (result.stopReason !== 'suspended') return undefined;
    const recorded = fork === undefined ? undefined : recordedDecisions(fork.served, result);
    return recorded ?? (await options.approve?.(result.suspension!));
  };
  let result = await finished(agent.run(input, { clock: clock.now, ...stub }));
  for (let approve = await decisions(result); approve !== undefined; approve = await decisions(result)) {
    result = await finished(agent.resume(result.suspension!, { clock: clock.now, approve, ...stub }));
  }
  if (forked !== undefined) {
    forked.assertForked();
    if (forked.liveCalls === 0) throw nothingAfterFork(settings.fork!, shown, result);
  }
  if (transport.exchanges.length === 0) {
    throw new UsageError('nothing_to_record', `The run made no model call, so there is nothing to record in ${shown}.`);
  }
  const trajectory = fromRun({
    name: shared.name,
    description: shared.description,
    agent,
    input,
    result,
    requests: transport.exchanges.map((exchange) => exchange.request),
    subRequests: subRequestsOf(transport),
    tools: [...postureToolsReachableFrom(agent), ...serverToolsReachableFrom(agent)],
    clock: clock.readings,
    recordedAt,
    sdkVersion: sdkVersion(),
  });
  if (fork !== undefined) trajectory.fork = forkOrigin(fork, settings.fork!.parent, shared.file);
  const served = forked === undefined ? [] : [...forked.served];
  return { result, trajectory, served, ...(refusedAnswer === undefined ? {} : { refusedAnswer }) };
}

/** A fork whose run made no live call: it ended, or stopped for approval, within the turns it served. */
function nothingAfterFork(fork: ForkSettings, shown: string, result: AgentResult): UsageError {
  const { parentShown, turn } = fork;
  const how =
    result.stopReason === 'suspended'
      ? `the run stopped for approval at turn ${result.turns}: pass approve to decide the calls it holds, and the ` +
        'fork goes on from the decision'
      : `the run ended at turn ${result.turns} (${result.stopReason})`;
  return new UsageError(
    'nothing_to_record',
    `The fork of ${parentShown} at turn ${turn} made no model call after turn ${turn}, so there is nothing to ` +
      `record in ${shown}: ${how}.`,
  );
}

/** What a recording transport's children saw, recursively, for sub-agents' runs. */
function subRequestsOf(transport: RecordingTransport): NonNullable<RunRecord['subRequests']> {
  return new Map(
    [...transport.children].map(([id, child]) => [
      id,
      { requests: child.exchanges.map((e) => e.request), subRequests: subRequestsOf(child) },
    ]),
  );
}

export function requireInput(
  options: TrajectoryRunOptions,
  shown: string,
  previous: Trajectory | undefined,
): string | UserBlock[] {
  const input = options.input ?? previous?.input;
  if (input === undefined) {
    throw new UsageError(
      'missing_input',
      `Recording ${shown} needs the user's input: pass { input } (a replay takes it from the file).`,
    );
  }
  return input;
}

/** An unreadable old file is simply replaced; only its name and input would have been reused. */
function tryLoad(file: string): Trajectory | undefined {
  try {
    return loadTrajectory(file);
  } catch {
    return undefined;
  }
}
