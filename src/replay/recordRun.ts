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
import type { ReplaySettings } from './replaySettings.js';
import type { SampleVerdict } from './samplesFailedError.js';
import { checkRuleFits, concludeSamples, judgeSample } from './sampleRuns.js';
import { outputOption, type TrajectoryRun, type TrajectoryRunOptions } from './trajectoryRunOptions.js';

/**
 * Runs the agent live and records the run to its file: atomically, redacted, scanned for secrets. With `samples: k`
 * the run is made k times, each a sample of its own in the one file; the test's `check` runs on each, and the file
 * passes by the rule in force (`pass`). The file is saved whatever the samples did: it records the model.
 */
export async function recordRun(
  options: TrajectoryRunOptions,
  file: string,
  shown: string,
  settings: ReplaySettings,
): Promise<TrajectoryRun> {
  const previous = options.trajectory ?? (existsSync(file) ? tryLoad(file) : undefined);
  const input = requireInput(options, shown, previous);
  const name = options.name ?? previous?.name ?? basename(file, extname(file));
  const description = options.description ?? previous?.description;
  const total = settings.samples;
  checkRuleFits(settings.pass, total, shown);
  const recorded: RecordedSample[] = [];
  const verdicts: SampleVerdict[] = [];
  for (let sample = 1; sample <= total; sample++) {
    const at = { sample, of: total };
    const run = async () => {
      const made = await recordSample(options, settings, shown, { input, name, description });
      recorded.push(made);
      if (made.refusedAnswer !== undefined) throw made.refusedAnswer;
      return made;
    };
    // A run that threw has no sample to keep, and fails the recording; a refused answer is kept, then thrown.
    const kept = () => (recorded.length === sample ? recorded[sample - 1]!.trajectory : undefined);
    verdicts.push(await judgeSample(at, kept, run, options.check));
  }
  const trajectory = withSamples(recorded.map((made) => made.trajectory));
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
  if (total === 1) {
    // One sample: its check's failure (or the refused answer) is thrown as it is, once the file is saved.
    const only = verdicts[0]!;
    if (!only.passed) throw only.error;
    return {
      mode: 'record',
      file,
      result: only.result!,
      trajectory: saved,
      ...(changes === undefined ? {} : { changes }),
    };
  }
  const chosen = concludeSamples(shown, settings.pass, verdicts);
  return {
    mode: 'record',
    file,
    result: chosen.result!,
    trajectory: saved,
    samples: verdicts,
    ...(changes === undefined ? {} : { changes }),
  };
}

/** One live run, made into a trajectory (not yet redacted): its result, and its answer if the output schema refused it. */
interface RecordedSample {
  result: AgentResult;
  trajectory: Trajectory;
  refusedAnswer?: StructuredOutputError;
}

async function recordSample(
  options: TrajectoryRunOptions,
  settings: ReplaySettings,
  shown: string,
  file: { input: string | UserBlock[]; name: string; description: string | undefined },
): Promise<RecordedSample> {
  const transport = new RecordingTransport(settings.transport());
  const agent = options.agent(transport);
  const clock = recordingClock(agent.clock);
  const recordedAt = new Date();
  const stub = { ...(options.toolStub === undefined ? {} : { toolStub: options.toolStub }), ...outputOption(options) };
  // A run whose answer the output schema refuses is recorded too (its replay refuses it the same way), then thrown.
  let refusedAnswer: StructuredOutputError | undefined;
  const finished = (run: Promise<AgentResult>) =>
    run.catch((error: unknown) => {
      if (!(error instanceof StructuredOutputError)) throw error;
      refusedAnswer = error;
      return error.result;
    });
  let result = await finished(agent.run(file.input, { clock: clock.now, ...stub }));
  while (result.stopReason === 'suspended' && options.approve !== undefined) {
    result = await finished(
      agent.resume(result.suspension!, {
        clock: clock.now,
        approve: await options.approve(result.suspension!),
        ...stub,
      }),
    );
  }
  if (transport.exchanges.length === 0) {
    throw new UsageError('nothing_to_record', `The run made no model call, so there is nothing to record in ${shown}.`);
  }
  const trajectory = fromRun({
    name: file.name,
    description: file.description,
    agent,
    input: file.input,
    result,
    requests: transport.exchanges.map((exchange) => exchange.request),
    subRequests: subRequestsOf(transport),
    tools: [...postureToolsReachableFrom(agent), ...serverToolsReachableFrom(agent)],
    clock: clock.readings,
    recordedAt,
    sdkVersion: sdkVersion(),
  });
  return { result, trajectory, ...(refusedAnswer === undefined ? {} : { refusedAnswer }) };
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

function tell(options: TrajectoryRunOptions, message: string): void {
  if (options.report === false) return;
  if (options.report !== undefined) options.report(message);
  else process.stderr.write(`legate: ${message}\n`);
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
