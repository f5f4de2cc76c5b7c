// Records the shipped corpus in trajectories/ by running each scenario's agent against its
// scripted model: the files are produced by the runtime, never typed by hand.
import { join } from 'node:path';
import { runTrajectory, summarizeChanges } from '../src/index.js';
import { scenarios } from '../examples/scenarios.js';

for (const scenario of scenarios) {
  const file = join('trajectories', `${scenario.name}.yaml`);
  const run = await runTrajectory({
    file,
    agent: scenario.factory,
    input: scenario.input,
    name: scenario.name,
    description: scenario.description,
    mode: 'record',
    transport: scenario.model,
    report: false,
    ...(scenario.approve === undefined ? {} : { approve: scenario.approve }),
  });
  const changes = run.changes === undefined ? 'new' : summarizeChanges(run.changes);
  console.log(
    `recorded ${file} (${run.result.turns} turn${run.result.turns === 1 ? '' : 's'}, ${run.result.stopReason}; ` +
      `${changes})`,
  );
}
