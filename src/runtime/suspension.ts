import { digestOf } from '../json/canonicalJson.js';
import type { ToolUseBlock } from '../messages/types.js';
import type { ToolCall } from './agentResult.js';
import type { RunState } from './runState.js';

export const SUSPENSION_VERSION = 1;

/** A call waiting for a person's decision, bound to its tool_use id and a digest of its input. */
export interface PendingCall {
  id: string;
  tool: string;
  input: unknown;
  /** `sha256:` of the call's id, tool and input: what an approval is given for. */
  inputDigest: string;
}

/**
 * A run stopped to wait for approval: versioned, plain JSON. Saved to a store, it survives the
 * process; `agent.resume(suspension, decision)` continues the run exactly where it stopped.
 */
export interface Suspension {
  version: number;
  /** Unique to this suspension: a resumed suspension is spent. */
  id: string;
  /** The run it belongs to, the same across its suspensions. */
  runId: string;
  /** The agent in charge when the run stopped: the one that resumes it. */
  agent: string;
  createdAt: string;
  /** The calls waiting for a decision, in block order. */
  pending: PendingCall[];
  /** The other calls of the same response, already answered, and the guard's decision for each call of it. */
  batch: { turn: number; ids: string[]; allowed: boolean[]; answered: ToolCall[] };
  state: RunState;
}

export function pendingCall(block: ToolUseBlock): PendingCall {
  return { id: block.id, tool: block.name, input: block.input, inputDigest: inputDigest(block.id, block.name, block.input) };
}

export function inputDigest(id: string, tool: string, input: unknown): string {
  return digestOf({ id, tool, input });
}

/** A copy safe to serialise: thrown values are reduced to their class and message. */
export function serializable(call: ToolCall): ToolCall {
  if (call.error?.error !== 'tool_failed') return call;
  const cause = call.error.cause;
  return { ...call, error: { ...call.error, cause: cause instanceof Error ? { name: cause.name, message: cause.message } : String(cause) } };
}
