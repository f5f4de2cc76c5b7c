// Records the example scenarios against the real API (the example agents use a small model)
// into trajectories/live/. Needs ANTHROPIC_API_KEY; without it, prints SKIPPED and exits 0.
// CI never runs this: it costs money and needs the network.
import { join } from 'node:path';
import { AnthropicTransport, runTrajectory } from '../src/index.js';
import { scenarios } from '../examples/scenarios.js';

if (!process.env.ANTHROPIC_API_KEY) {
  console.log('SKIPPED: set ANTHROPIC_API_KEY to record the example agents against the live API.');
  process.exit(0);
}

let failures = 0;
for (const scenario of scenarios) {
  const file = join('trajectories', 'live', `${scenario.name}.yaml`);
  try {
    const run = await runTrajectory({
      file,
      agent: scenario.factory,
      input: scenario.input,
      name: `live-${scenario.name}`,
      description: `${scenario.description} (recorded live)`,
      mode: 'record',
      transport: () => new AnthropicTransport(),
    });
    console.log(`recorded ${file} (${run.result.turns} turns, ${run.result.stopReason})`);
  } catch (error) {
    failures++;
    console.error(`failed ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exitCode = failures > 0 ? 1 : 0;
