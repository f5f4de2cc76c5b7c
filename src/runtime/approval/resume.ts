import { copyValue } from '../../json/copyValue.js';
import type { ToolUseBlock } from '../../messages/types.js';
import type { AgentResult, ToolCall } from '../agentResult.js';
import { idempotencyKey, type Ledger } from './claimLedger.js';
import type { EventLog } from '../events.js';
import { answered, executeToolCall, type ExecutedToolCall } from '../executeToolCall.js';
import type { RunConfig } from '../runConfig.js';
import { closeBatch, runLoop } from '../runLoop.js';
import type { RunState } from '../runState.js';
import { blockedCall, toolScope, traceCall } from '../runTools.js';
import { readDecisions, type Decisions } from './approvalDecision.js';
import { hasValidSignature, inputDigest, SUSPENSION_VERSION, type PendingCall, type Suspension } from './suspension.js';
import { SuspensionError } from './suspensionError.js';
import { LegateError } from '../../errors/LegateError.js';

export type { ApprovalDecision } from './approvalDecision.js';
export { SuspensionError, type SuspensionErrorCode } from './suspensionError.js';

/**
 * Checks a suspension before anything runs: its version, its agent, that every pending call is
 * the one in the conversation with the input it was suspended with, and that every decision
 * was given for exactly that input. Returns each pending call's decision.
 */
export function checkResume(
  suspension: Suspension,
  agent: string,
  approve: unknown,
  reason: unknown,
  key?: string | Uint8Array,
): Decisions {
  checkSuspension(suspension, agent, key);
  const decisions = readDecisions(suspension.pending, approve, reason);
  if (!(decisions instanceof Map)) throw new SuspensionError(decisions.code, decisions.message);
  return decisions;
}

/**
 * The suspension itself: its version, its agent, its signature, and that every pending call is the one in the
 * conversation.
 */
export function checkSuspension(suspension: Suspension, agent: string, key?: string | Uint8Array): void {
  if (suspension.version !== SUSPENSION_VERSION) {
    throw new SuspensionError(
      'unsupported_version',
      `This suspension has version ${String(suspension.version)}; this legate resumes version ${SUSPENSION_VERSION}.`,
    );
  }
  if (suspension.agent !== agent) {
    throw new SuspensionError(
      'wrong_agent',
      `This suspension belongs to agent '${suspension.agent}', not '${agent}'; resume it with that agent.`,
    );
  }
  if (key !== undefined && !hasValidSignature(suspension, key)) {
    throw new SuspensionError(
      'altered',
      `Suspension ${suspension.id} does not carry a valid signature for the key of agent '${agent}'; it was ` +
        'changed, or not made by that agent. Nothing was run.',
    );
  }
  const conversation = lastToolUses(suspension.state);
  for (const pending of suspension.pending) checkIntact(pending, conversation);
}

function lastToolUses(state: RunState): Map<string, ToolUseBlock> {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'assistant') return new Map();
  return new Map(last.content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => [b.id, b]));
}

function checkIntact(pending: PendingCall, conversation: Map<string, ToolUseBlock>): void {
  const block = conversation.get(pending.id);
  const intact =
    block !== undefined &&
    // Also bound by the digests below: named on its own, as a tampered tool name is the change that matters most.
    block.name === pending.tool &&
    inputDigest(pending.id, pending.tool, pending.input) === pending.inputDigest &&
    inputDigest(block.id, block.name, block.input) === pending.inputDigest;
  if (!intact)
    throw new SuspensionError(
      'altered',
      `Pending call ${pending.id} ('${pending.tool}') is not the call the run was suspended with; nothing was run.`,
    );
}

export function deniedMessage(tool: string, reason: string | undefined): string {
  const theirReason = reason === undefined ? '' : ` Their reason: ${reason}`;
  return (
    `Tool '${tool}' was not run: a person reviewed the call and did not approve it.${theirReason} ` +
    'Do not try it again; tell the user.'
  );
}

/** How a resume goes on: what it records, and (for a recovery) which tools may run again. */
export interface ContinueOptions {
  ledger: Ledger;
  /**
   * A recovery: whether a call left `started` may run again (its tool makes its effect idempotent on
   * `ctx.idempotencyKey`).
   */
  rerun?: (tool: string) => boolean;
}

/**
 * Continues a suspended run: approved calls run (once, here), denied ones are answered with a
 * refusal the model can act on, the response's batch closes in block order, and the loop goes on.
 * Each approved call's progress is recorded on the claim before and after it runs; in a recovery,
 * a call recorded as finished is answered from the record, and one started but never finished is
 * not run again (unless its tool may be) but answered as an outcome nobody knows, and recorded so.
 */
export async function continueRun(
  config: RunConfig,
  suspension: Suspension,
  decisions: Decisions,
  signal: AbortSignal,
  log: EventLog,
  options: ContinueOptions,
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
  const next = closeBatch(config, state, inOrder, suspension.batch.allowed, turn, log);
  const result = await runLoop(next, state, suspension.runId, signal, log);
  await ledger.done();
  return result;
}

/** An approved call whose process stopped after it started and before its outcome was recorded. */
export class OutcomeUnknownError extends LegateError {
  readonly code = 'outcome_unknown';
  constructor(
    readonly tool: string,
    readonly callId: string,
  ) {
    super(
      `Approved call ${callId} ('${tool}') was started by a resume whose process stopped before its outcome ` +
        'was recorded; it was not run again. Check whether its effect happened.',
    );
  }
}

function outcomeUnknownCall(block: ToolUseBlock, turn: number): ToolCall {
  const message =
    `Tool '${block.name}' was approved and started, but the process running it stopped before its outcome was ` +
    'recorded. It was not run again, so its effect may or may not have happened. Do not call it again; tell the ' +
    'user it needs checking.';
  return {
    id: block.id,
    name: block.name,
    input: block.input,
    outcome: 'error',
    output: message,
    turn,
    error: {
      error: 'tool_failed',
      tool: block.name,
      errorClass: 'OutcomeUnknownError',
      message,
      cause: new OutcomeUnknownError(block.name, block.id),
    },
  };
}
