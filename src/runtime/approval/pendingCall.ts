import { digestOf } from '../../json/canonicalJson.js';
import type { ToolUseBlock } from '../../messages/types.js';
import type { TaintReview } from '../../guard/taintReview.js';

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

/** The pending call for a tool_use block, its input digested. */
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
