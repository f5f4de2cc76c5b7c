import type { ToolUseBlock } from '../../messages/types.js';
import type { RunState } from '../agentResult.js';
import { readDecisions, type Decisions } from './approvalDecision.js';
import { hasValidSignature, SUSPENSION_VERSION } from './suspension.js';
import { inputDigest, type PendingCall } from './pendingCall.js';
import type { Suspension } from '../agentResult.js';
import { SuspensionError } from './suspensionError.js';

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

/** The tool_use blocks of the run's last message, by id: the calls of the response the run stopped in. */
export function lastToolUses(state: RunState): Map<string, ToolUseBlock> {
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
