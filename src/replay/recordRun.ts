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
import { UsageError } from '../errors/UsageError.js';
import type { ReplaySettings } from './replaySettings.js';
import { outputOption, type TrajectoryRun, type TrajectoryRunOptions } from './trajectoryRunOptions.js';

/** Runs the agent live and records the run to its file: atomically, redacted, scanned for secrets. */
export async function recordRun(
  options: TrajectoryRunOptions,
  file: string,
  shown: string,
  settings: ReplaySettings,
): Promise<TrajectoryRun> {
  const previous = options.trajectory ?? (existsSync(file) ? tryLoad(file) : undefined);
  const input = requireInput(options, shown, previous);
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
  let result = await finished(agent.run(input, { clock: clock.now, ...stub }));
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
    name: options.name ?? previous?.name ?? basename(file, extname(file)),
    description: options.description ?? previous?.description,
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
  const saveOptions = { redactions: settings.redactions, secrets: settings.secrets };
  const redacted = prepareTrajectory(trajectory, saveOptions);
  const changes = previous === undefined ? undefined : diffTrajectories(previous, redacted);
  // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
  const saved =
    changes !== undefined && changes.length === 0 ? previous! : saveTrajectory(file, trajectory, saveOptions);
  const run: TrajectoryRun = { mode: 'record', file, result, trajectory: saved };
  for (const call of callsWithRedactedInput(redacted.turns)) {
    tell(
      options,
      `recorded ${shown}: a redaction changed the input of call ${call.id} ('${call.tool}'), so a replay serves ` +
        'its recorded result instead of running the tool with the placeholder.',
    );
  }
  if (changes !== undefined) {
    run.changes = changes;
    if (changes.length > 0) tell(options, `re-recorded ${shown}: ${summarizeChanges(changes)}`);
  }
  if (refusedAnswer !== undefined) throw refusedAnswer;
  return run;
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
