import type { ToolUseBlock } from '../messages/types.js';
import type { AgentResult } from './agentResult.js';
import type { EventLog } from './events.js';
import { answered, executeToolCall, type ExecutedToolCall } from './executeToolCall.js';
import type { RunConfig } from './runConfig.js';
import { closeBatch, runLoop } from './runLoop.js';
import type { RunState } from './runState.js';
import { blockedCall, toolScope } from './runTools.js';
import { hasValidSignature, inputDigest, SUSPENSION_VERSION, type PendingCall, type Suspension } from './suspension.js';

/** A person's decision on one pending call, bound to the input they saw. */
export interface ApprovalDecision {
  id: string;
  /** The pending call's `inputDigest`: an approval given for other arguments does not apply. */
  inputDigest: string;
  approve: boolean;
  /** Told to the model when the call is denied. */
  reason?: string;
}

/** Why a suspension cannot be resumed. Every case fails closed: nothing runs. */
export type SuspensionErrorCode = 'unsupported_version' | 'wrong_agent' | 'altered' | 'stale_approval' | 'undecided' | 'already_resumed';

export class SuspensionError extends Error {
  override name = 'SuspensionError';
  constructor(
    readonly code: SuspensionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks a suspension before anything runs: its version, its agent, that every pending call is
 * the one in the conversation with the input it was suspended with, and that every decision
 * was given for exactly that input. Returns each pending call's decision.
 */
export function checkResume(
  suspension: Suspension,
  agent: string,
  decisions: boolean | readonly ApprovalDecision[],
  reason: string | undefined,
  key?: string | Uint8Array,
): Map<string, { approve: boolean; reason?: string }> {
  if (suspension.version !== SUSPENSION_VERSION) {
    throw new SuspensionError('unsupported_version', `This suspension has version ${String(suspension.version)}; this legate resumes version ${SUSPENSION_VERSION}.`);
  }
  if (suspension.agent !== agent) {
    throw new SuspensionError('wrong_agent', `This suspension belongs to agent '${suspension.agent}', not '${agent}'; resume it with that agent.`);
  }
  if (key !== undefined && !hasValidSignature(suspension, key)) {
    throw new SuspensionError('altered', `Suspension ${suspension.id} does not carry a valid signature for this agent's key; it was changed, or not made by this agent. Nothing was run.`);
  }
  const conversation = lastToolUses(suspension.state);
  for (const pending of suspension.pending) checkIntact(pending, conversation);
  const result = new Map<string, { approve: boolean; reason?: string }>();
  for (const pending of suspension.pending) {
    if (typeof decisions === 'boolean') {
      result.set(pending.id, { approve: decisions, ...(reason === undefined ? {} : { reason }) });
      continue;
    }
    const decision = decisions.find((d) => d.id === pending.id);
    if (decision === undefined) throw new SuspensionError('undecided', `Pending call ${pending.id} ('${pending.tool}') has no decision; decide every pending call.`);
    if (decision.inputDigest !== pending.inputDigest) {
      throw new SuspensionError('stale_approval', `The decision for ${pending.id} ('${pending.tool}') was given for other arguments (${decision.inputDigest}, now ${pending.inputDigest}); nothing was run.`);
    }
    result.set(pending.id, { approve: decision.approve, ...(decision.reason ?? reason ? { reason: decision.reason ?? reason } : {}) });
  }
  return result;
}

function lastToolUses(state: RunState): Map<string, ToolUseBlock> {
  const last = state.messages[state.messages.length - 1];
  const blocks = last?.role === 'assistant' ? last.content : [];
  return new Map(blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => [b.id, b]));
}

function checkIntact(pending: PendingCall, conversation: Map<string, ToolUseBlock>): void {
  const block = conversation.get(pending.id);
  const intact =
    block !== undefined &&
    block.name === pending.tool &&
    inputDigest(pending.id, pending.tool, pending.input) === pending.inputDigest &&
    inputDigest(block.id, block.name, block.input) === pending.inputDigest;
  if (!intact) throw new SuspensionError('altered', `Pending call ${pending.id} ('${pending.tool}') is not the call the run was suspended with; nothing was run.`);
}

export function deniedMessage(tool: string, reason: string | undefined): string {
  return `Tool '${tool}' was not run: a person reviewed the call and did not approve it.${reason === undefined ? '' : ` Their reason: ${reason}`} Do not try it again; tell the user.`;
}

/**
 * Continues a suspended run: approved calls run (once, here), denied ones are answered with a
 * refusal the model can act on, the response's batch closes in block order, and the loop goes on.
 */
export async function continueRun(config: RunConfig, suspension: Suspension, decisions: Map<string, { approve: boolean; reason?: string }>, signal: AbortSignal, log: EventLog): Promise<AgentResult> {
  const state = structuredClone(suspension.state);
  const { turn } = suspension.batch;
  const blocks = lastToolUses(state);
  log.emit({
    type: 'resumed',
    agent: config.agent,
    turn,
    approved: suspension.pending.filter((p) => decisions.get(p.id)?.approve === true).map((p) => p.id),
    denied: suspension.pending.filter((p) => decisions.get(p.id)?.approve !== true).map((p) => p.id),
  });
  state.approvals.push({
    turn,
    decisions: suspension.pending.map((p) => {
      const decision = decisions.get(p.id)!;
      return { id: p.id, tool: p.tool, approve: decision.approve, ...(decision.reason === undefined ? {} : { reason: decision.reason }) };
    }),
  });
  const approvedScope = toolScope(config, state, turn, signal, true);
  const decided = new Map<string, ExecutedToolCall>();
  for (const pending of suspension.pending) {
    const block = blocks.get(pending.id)!;
    const decision = decisions.get(pending.id)!;
    const outcome = decision.approve
      ? await executeToolCall(block, approvedScope)
      : answered(blockedCall(block, { rule: 'approval', message: deniedMessage(block.name, decision.reason) }, turn));
    if ('pending' in outcome) throw new Error('an approved call cannot wait for approval again');
    log.emit({ type: 'tool_finished', agent: config.agent, turn, call: outcome.call });
    decided.set(pending.id, outcome);
  }
  const plannedInputs = suspension.batch.plannedInputs ?? {};
  const earlier = new Map(suspension.batch.answered.map((call) => [call.id, { ...answered(call), plannedInput: plannedInputs[call.id] }]));
  const inOrder = suspension.batch.ids.map((id) => decided.get(id) ?? earlier.get(id)!);
  const next = closeBatch(config, state, inOrder, suspension.batch.allowed, turn, log);
  return runLoop(next, state, suspension.runId, signal, log);
}
