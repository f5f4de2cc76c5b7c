import type { AgentResult } from '../runtime/agentResult.js';
import { recordedClock } from '../recording/recordedClock.js';
import { createRedactor } from '../trajectory/redaction.js';
import { loadTrajectory, recordFirst } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';
import { expectationFailed } from './divergence.js';
import type { ReplaySettings } from './replaySettings.js';
import { ReplayTransport } from './ReplayTransport.js';
import { checkRunFacts } from './runFacts.js';
import { recordedDecisions } from './recordedDecisions.js';
import { forkParentState } from './forkParentState.js';
import { tell } from './tell.js';
import { outputOption, type TrajectoryRun, type TrajectoryRunOptions } from './trajectoryRunOptions.js';

/** The file, absolute and as messages name it, and the command that re-records it. */
type Where = { file: string; shown: string; rerecord: string };

/** Replays a trajectory file offline: every request compared, every decision refereed, the run's facts checked. */
export async function replayRun(
  options: TrajectoryRunOptions,
  where: Where,
  settingsFor: (t: Trajectory) => ReplaySettings,
): Promise<TrajectoryRun> {
  const { file, shown } = where;
  const trajectory = options.trajectory ?? loadTrajectory(file, recordFirst(where.rerecord));
  const settings = settingsFor(trajectory);
  // A fork replays on its own; a parent changed or gone since it was forked is told, before the replay's verdict.
  const fork = trajectory.fork === undefined ? undefined : forkParentState(trajectory.fork, file, shown);
  if (fork?.note !== undefined) tell(options, fork.note);
  const context = { file: shown, rerecord: settings.rerecord };
  const transport = new ReplayTransport(trajectory, {
    ...context,
    match: settings.match,
    redact: createRedactor(settings.redactions),
    runTools: settings.runTools,
  });
  const agent = options.agent(transport);
  const runOptions = { clock: recordedClock(trajectory), replay: transport.referee, ...outputOption(options) };
  let result = await agent.run(trajectory.input, runOptions);
  // A recorded decision resumes the run where the recording did; none means it ended suspended.
  for (
    let decisions = recordedDecisions(trajectory, result);
    decisions !== undefined;
    decisions = recordedDecisions(trajectory, result)
  ) {
    result = await agent.resume(result.suspension!, { ...runOptions, approve: decisions });
  }
  transport.assertDone();
  // A file with expectations (a fuzz finding) recorded the broken run: how that run ended is not the goal.
  if (trajectory.expect === undefined) checkRunFacts(trajectory, result, context);
  checkExpectations(trajectory, result, context);
  const run: TrajectoryRun = { mode: 'replay', file, result, trajectory, served: [...transport.served] };
  if (fork !== undefined) run.fork = fork;
  return run;
}

/** A recording's own expectations: calls that must be blocked (a fuzz finding's regression test). */
function checkExpectations(
  trajectory: Trajectory,
  result: AgentResult,
  context: { file: string; rerecord: string },
): void {
  for (const expected of trajectory.expect?.blocked ?? []) {
    const call = result.toolCalls.find((c) => c.id === expected.id);
    const ok =
      call !== undefined && call.outcome === 'blocked' && (expected.rule === undefined || call.rule === expected.rule);
    if (!ok)
      throw expectationFailed(
        context,
        call?.turn ?? 0,
        expected.id,
        expected.tool,
        expected.rule,
        call === undefined ? 'never called' : `${call.outcome}${call.rule === undefined ? '' : ` by ${call.rule}`}`,
      );
  }
}
