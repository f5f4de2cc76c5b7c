import type { ToolCall } from '../agentResult.js';

/**
 * A claim on a suspension, kept by the store for good: who resumed it, when, with which
 * decisions, and how far the approved calls got. `finished` once the resumed run returned.
 */
export interface ClaimRecord {
  runId: string;
  suspensionId: string;
  /** Who holds the claim: the resuming process (`host:pid:random` by default), or a recovery that took it over. */
  owner: string;
  /** When the claim was taken, or last taken over (ISO 8601). */
  claimedAt: string;
  status: 'claimed' | 'finished';
  /** The decisions it was resumed with, by tool_use id: a recovery applies the same ones. */
  decisions: Record<string, { approve: boolean; reason?: string }>;
  /**
   * Each approved call's progress, by tool_use id: `started` is written before the tool runs,
   * `finished` (with its outcome) after. A call left `started` may or may not have had its effect.
   * `unknown`: a recovery found it `started` and did not run it again (its outcome needs a person's
   * check), or it was pending on a claim made by an older legate, which recorded neither the
   * decision nor the progress.
   */
  calls: Record<string, { state: 'started' } | { state: 'finished'; call: ToolCall } | { state: 'unknown' }>;
}

/** What a resume needs of a store: an atomic, permanent claim, and a compare-and-set record of it. */
export interface ClaimStore {
  claim(runId: string, suspensionId: string, record: ClaimRecord): Promise<boolean>;
  claimOf(suspensionId: string): Promise<ClaimRecord | undefined>;
  updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean>;
}
