import { formatPath } from './field.js';
import type { RecordedSubRun } from './types.js';

/**
 * The first turn of a run (or of a sub-agent's run inside it) made by an agent the run does not
 * describe: neither the run's own agent nor one under `agents`. A replay could not know what
 * that turn's requests carried. The reader refuses such a file and a replay such a trajectory.
 */
export function undescribedTurnAgent(
  run: RecordedSubRun,
  holder: 'file' | 'trajectory',
  at: (string | number)[] = [],
): { path: (string | number)[]; message: string } | undefined {
  for (const [i, turn] of run.turns.entries()) {
    const { agent } = turn;
    if (agent !== undefined && agent !== run.agent && !Object.hasOwn(run.agents ?? {}, agent)) {
      const path = [...at, 'turns', i, 'agent'];
      const others = Object.keys(run.agents ?? {}).join(', ') || 'none';
      const message =
        `${formatPath(path)} names '${agent}', which the ${holder} does not describe: ` +
        `it should be '${run.agent}' (the run's agent) or one under 'agents' (${others}).`;
      return { path, message };
    }
    for (const [j, result] of (turn.results ?? []).entries()) {
      if (result.subRun === undefined) continue;
      const inner = undescribedTurnAgent(result.subRun, holder, [...at, 'turns', i, 'results', j, 'subRun']);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}
