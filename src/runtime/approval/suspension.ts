import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson, digestOf } from '../../json/canonicalJson.js';
import type { ToolUseBlock } from '../../messages/types.js';
import type { TaintReview } from '../../guard/taintReview.js';
import type { ToolCall } from '../agentResult.js';
import type { RunState } from '../runState.js';

export const SUSPENSION_VERSION = 1;

/** A call waiting for a person's decision, bound to its tool_use id and a digest of its input. */
export interface PendingCall {
  id: string;
  tool: string;
  input: unknown;
  /** `sha256:` of the call's id, tool and input: what an approval is given for. */
  inputDigest: string;
  /**
   * For a call held because the run is tainted (its tool's `onTaint` is `approve`): what the person
   * deciding needs to see: the sources of untrusted content, with excerpts, and the untraced argument.
   */
  taint?: TaintReview;
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
  batch: {
    turn: number;
    ids: string[];
    allowed: boolean[];
    answered: ToolCall[];
    /** The bound arguments of calls shadow mode planned, by id, for `plannedEffects`. */
    plannedInputs?: Record<string, unknown>;
  };
  state: RunState;
  /**
   * With an agent `suspensionKey`: an HMAC-SHA256 over everything above, so whoever can write
   * the store but does not hold the key cannot make a suspension the agent will resume.
   */
  signature?: string;
}

/** The suspension's HMAC under a key: over its canonical JSON, its signature left out. */
export function signatureOf(suspension: Suspension, key: string | Uint8Array): string {
  const { signature: _ignored, ...signed } = suspension;
  return `hmac-sha256:${createHmac('sha256', key).update(canonicalJson(signed)).digest('hex')}`;
}

/** True when the suspension carries the signature its contents and the key produce. */
export function hasValidSignature(suspension: Suspension, key: string | Uint8Array): boolean {
  if (typeof suspension.signature !== 'string') return false;
  const expected = Buffer.from(signatureOf(suspension, key));
  const actual = Buffer.from(suspension.signature);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function pendingCall(block: ToolUseBlock, taint?: TaintReview): PendingCall {
  const pending: PendingCall = {
    id: block.id,
    tool: block.name,
    input: block.input,
    inputDigest: inputDigest(block.id, block.name, block.input),
  };
  if (taint !== undefined) pending.taint = taint;
  return pending;
}

export function inputDigest(id: string, tool: string, input: unknown): string {
  return digestOf({ id, tool, input });
}

/**
 * A copy safe to store: a thrown value is reduced to its class, as the model was told. Its message
 * (which can hold a credential, a URL with a token) stays in the live result and is never stored.
 */
export function serializable(call: ToolCall): ToolCall {
  if (call.error?.error !== 'tool_failed') return call;
  const cause = call.error.cause;
  return { ...call, error: { ...call.error, cause: { name: cause instanceof Error ? cause.name : typeof cause } } };
}
