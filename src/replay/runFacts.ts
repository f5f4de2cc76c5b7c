import type { AgentResult } from '../runtime/agentResult.js';
import { runFactsDiffer } from './divergence.js';
import type { DivergenceContext } from './divergenceError.js';
import type { RecordedSubRun, Trajectory } from '../trajectory/types.js';

type RecordedRun = Pick<Trajectory, 'turns' | 'summary'> | RecordedSubRun;

/**
 * Compares how a replayed run ended with how the recording did: its stop reason, whether it was
 * tainted and by which tool, the chain of handoffs, and the calls it was left waiting on; then
 * the same for every sub-agent run recorded under a call that ran again. The first run that ended
 * differently is a `run_facts` divergence listing every fact that differs.
 */
export function checkRunFacts(recorded: RecordedRun, result: AgentResult, context: DivergenceContext): void {
  const differences = factsOf(recorded, result);
  if (differences.length > 0) throw runFactsDiffer(context, result.turns, differences);
  const recordedCalls = new Map(recorded.turns.flatMap((turn) => turn.results ?? []).map((r) => [r.id, r]));
  for (const call of result.toolCalls) {
    const sub = recordedCalls.get(call.id)?.subRun;
    if (call.subRun === undefined || sub === undefined) continue;
    checkRunFacts(sub, call.subRun, { ...context, file: `${context.file} (the run inside call ${call.id})` });
  }
}

function factsOf(recorded: RecordedRun, result: AgentResult) {
  const { summary } = recorded;
  const pending = recorded.turns.flatMap((turn) =>
    (turn.results ?? []).filter((r) => r.outcome === 'suspended').map((r) => r.id),
  );
  const facts: { fact: string; expected: unknown; actual: unknown }[] = [
    { fact: 'stop reason', expected: summary.stopReason, actual: result.stopReason },
    { fact: 'tainted', expected: summary.tainted === true, actual: result.tainted },
    { fact: 'taint source', expected: summary.taintSource, actual: result.taintSource },
    {
      fact: 'handoffs',
      expected: (summary.handoffs ?? []).map((h) => `${h.from} -> ${h.to}`),
      actual: result.handoffs.map((h) => `${h.from} -> ${h.to}`),
    },
    { fact: 'waiting on', expected: pending, actual: result.suspension?.pending.map((p) => p.id) ?? [] },
  ];
  return facts.filter((f) => JSON.stringify(f.expected) !== JSON.stringify(f.actual));
}
