import { copyValue } from '../../json/copyValue.js';
import type { AgentResult } from '../agentResult.js';
import type { EventLog } from '../events.js';
import { answered, executeToolCall, type ExecutedToolCall } from '../executeToolCall.js';
import type { RunConfig } from '../runConfig.js';
import { continueRun } from '../runLoop.js';
import { blockedCall, toolScope, traceCall } from '../runTools.js';
import type { Decisions } from './approvalDecision.js';
import { lastToolUses } from './checkSuspension.js';
import { idempotencyKey, type Ledger } from './claimLedger.js';
import { outcomeUnknownCall } from './outcomeUnknownError.js';
import type { Suspension } from '../agentResult.js';

/** How a resume goes on: what it records, and (for a recovery) which tools may run again. */
export interface ResumeRunOptions {
  ledger: Ledger;
  /**
   * A recovery: whether a call left `started` may run again (its tool makes its effect idempotent on
   * `ctx.idempotencyKey`).
   */
  rerun?: (tool: string) => boolean;
}

/**
 * Continues a suspended run: approved calls run (once, here), denied ones are answered with a
 * refusal the model can act on, and the run goes back into the loop (`continueRun`), which closes
 * the response's batch in block order. Each approved call's progress is recorded on the claim
 * before and after it runs; in a recovery, a call recorded as finished is answered from the
 * record, and one started but never finished is not run again (unless its tool may be) but
 * answered as an outcome nobody knows, and recorded so.
 */
export async function resumeRun(
  config: RunConfig,
  suspension: Suspension,
  decisions: Decisions,
  signal: AbortSignal,
  log: EventLog,
  options: ResumeRunOptions,
): Promise<AgentResult> {
  const { ledger, rerun } = options;
  const state = copyValue(suspension.state);
  const { turn } = suspension.batch;
  const blocks = lastToolUses(state);
  log.emit({
    type: 'resumed',
    agent: config.agent.name,
    turn,
    approved: suspension.pending.filter((p) => decisions.get(p.id)!.approve === true).map((p) => p.id),
    denied: suspension.pending.filter((p) => decisions.get(p.id)!.approve !== true).map((p) => p.id),
  });
  state.approvals.push({
    turn,
    decisions: suspension.pending.map((p) => {
      const decision = decisions.get(p.id)!;
      return {
        id: p.id,
        tool: p.tool,
        approve: decision.approve,
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
      };
    }),
  });
  const approvedScope = toolScope(config, state, turn, signal, true);
  const decided = new Map<string, ExecutedToolCall>();
  const recovery = { reused: [] as string[], rerun: [] as string[], unknown: [] as string[] };
  for (const pending of suspension.pending) {
    const block = blocks.get(pending.id)!;
    const decision = decisions.get(pending.id)!;
    const span = traceCall(
      config,
      turn,
      block,
      decision.approve ? { outcome: 'run' } : { outcome: 'blocked', rule: 'approval' },
      decision.approve,
    );
    let outcome: ExecutedToolCall;
    let ran = false;
    const prior = decision.approve ? ledger.prior(pending.id) : undefined;
    if (!decision.approve) {
      outcome = answered(
        blockedCall(block, { rule: 'approval', message: deniedMessage(block.name, decision.reason) }, turn),
      );
    } else if (prior?.state === 'finished') {
      outcome = answered(prior.call);
      recovery.reused.push(pending.id);
    } else if (prior?.state === 'unknown' || (prior?.state === 'started' && rerun?.(block.name) !== true)) {
      // Found started, never finished, and not run again: the claim records that its outcome is unknown.
      if (prior.state === 'started') await ledger.unknown(pending.id);
      outcome = answered(outcomeUnknownCall(block, turn));
      recovery.unknown.push(pending.id);
    } else {
      if (prior?.state === 'started') recovery.rerun.push(pending.id);
      const running = ledger
        .started(pending.id)
        .then(() =>
          executeToolCall(
            block,
            { ...approvedScope, idempotencyKey: idempotencyKey(suspension.runId, pending.id) },
            span,
          ),
        );
      span?.follow(running);
      ran = true;
      const executed = await running;
      if ('pending' in executed) throw new Error('an approved call cannot wait for approval again');
      await ledger.finished(pending.id, executed.call);
      outcome = executed;
    }
    // A call answered without running (denied, or from the claim's record) ends its span here.
    if (!ran) span?.finish(outcome.call);
    log.emit({ type: 'tool_finished', agent: config.agent.name, turn, call: outcome.call });
    decided.set(pending.id, outcome);
  }
  if (recovery.reused.length + recovery.rerun.length + recovery.unknown.length > 0)
    log.emit({ type: 'recovered', agent: config.agent.name, turn, ...recovery });
  const plannedInputs = suspension.batch.plannedInputs ?? {};
  const earlier = new Map(
    suspension.batch.answered.map((call) => [call.id, { ...answered(call), plannedInput: plannedInputs[call.id] }]),
  );
  const inOrder = suspension.batch.ids.map((id) => decided.get(id) ?? earlier.get(id)!);
  const batch = { turn, answered: inOrder, allowed: suspension.batch.allowed };
  const result = await continueRun(config, state, suspension.runId, batch, signal, log);
  await ledger.done();
  return result;
}

/** What the model is told of a call a person denied. */
function deniedMessage(tool: string, reason: string | undefined): string {
  const theirReason = reason === undefined ? '' : ` Their reason: ${reason}`;
  return (
    `Tool '${tool}' was not run: a person reviewed the call and did not approve it.${theirReason} ` +
    'Do not try it again; tell the user.'
  );
}
