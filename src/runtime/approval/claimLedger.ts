import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ToolCall } from '../agentResult.js';
import type { Decisions } from './approvalDecision.js';
import type { ClaimRecord, ClaimStore } from './claimRecord.js';
import { SuspensionError } from './suspensionError.js';
import { serializable } from './suspension.js';
import type { Suspension } from '../agentResult.js';

/**
 * The key an approved call's effect is made under, the same whichever process runs it: derived
 * from the run and the call's tool_use id (a call is pending once in its run), not from the
 * suspension's id, so a spent suspension given a new id keeps its calls' keys. A tool that passes
 * it to the system it acts on (a payment API's idempotency key, a unique row) makes its effect
 * happen at most once, even when a store restored from a backup lets a spent suspension be
 * resumed again.
 */
export function idempotencyKey(runId: string, callId: string): string {
  return `legate-${createHash('sha256')
    .update(JSON.stringify(['legate-approved-call', runId, callId]))
    .digest('hex')
    .slice(0, 32)}`;
}

/** Who holds a claim by default: this machine and process, and a random part unique to the resume. */
export function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/** What a resume records as it goes, so that a recovery knows which approved calls ran. */
export interface Ledger {
  /** What an earlier holder of the claim recorded for a call. */
  prior(callId: string): ClaimRecord['calls'][string] | undefined;
  /** Recorded before an approved call runs; throws `claim_lost` if the claim was taken over. */
  started(callId: string): Promise<void>;
  finished(callId: string, call: ToolCall): Promise<void>;
  /** Recorded when a recovery finds a call started but never finished, and does not run it again. */
  unknown(callId: string): Promise<void>;
  /** The resumed run returned (ended or suspended again): the claim is finished. */
  done(): Promise<void>;
}

/** Without a store, this process remembers what it resumed; there is nothing to recover from. */
export const unrecorded: Ledger = {
  prior: () => undefined,
  started: async () => undefined,
  finished: async () => undefined,
  unknown: async () => undefined,
  done: async () => undefined,
};

/** A new claim's first record. */
function newClaim(suspension: Suspension, decisions: Decisions, owner: string): ClaimRecord {
  return {
    runId: suspension.runId,
    suspensionId: suspension.id,
    owner,
    claimedAt: new Date().toISOString(),
    status: 'claimed',
    decisions: Object.fromEntries(decisions),
    calls: {},
  };
}

/** A resume's hold on its claim in a store: every change is a compare-and-set on the owner. */
class StoredLedger implements Ledger {
  #record: ClaimRecord;
  readonly #store: ClaimStore;

  constructor(store: ClaimStore, record: ClaimRecord) {
    this.#store = store;
    this.#record = record;
  }

  prior(callId: string): ClaimRecord['calls'][string] | undefined {
    return Object.hasOwn(this.#record.calls, callId) ? this.#record.calls[callId] : undefined;
  }

  started(callId: string): Promise<void> {
    return this.#update((record) => ({ ...record, calls: { ...record.calls, [callId]: { state: 'started' } } }));
  }

  async finished(callId: string, call: ToolCall): Promise<void> {
    const record =
      (kept: ToolCall) =>
      (claim: ClaimRecord): ClaimRecord => ({
        ...claim,
        calls: { ...claim.calls, [callId]: { state: 'finished', call: kept } },
      });
    try {
      await this.#update(record(serializable(call)));
    } catch (error) {
      // The store refused the outcome because it holds a secret: the call still finished, so
      // that is recorded, without its output (a recovery tells the model it was withheld).
      if ((error as { code?: unknown }).code !== 'secret_in_record') throw error;
      const { withheld: _withheld, subRun: _subRun, error: _error, ...bare } = call;
      await this.#update(record({ ...bare, output: `The output of '${call.name}' was not stored: it held a secret.` }));
    }
  }

  unknown(callId: string): Promise<void> {
    return this.#update((record) => ({ ...record, calls: { ...record.calls, [callId]: { state: 'unknown' } } }));
  }

  done(): Promise<void> {
    return this.#update((record) => ({ ...record, status: 'finished' }));
  }

  async #update(change: (record: ClaimRecord) => ClaimRecord): Promise<void> {
    const next = { ...change(this.#record), claimedAt: new Date().toISOString() };
    if (!(await this.#store.updateClaim(this.#record.suspensionId, this.#record.owner, next))) {
      throw new SuspensionError(
        'claim_lost',
        `The claim on suspension ${this.#record.suspensionId} of run ${this.#record.runId} is no longer held ` +
          `by ${this.#record.owner} (a recovery took it over); this resume stops here, before running anything ` +
          'more.',
      );
    }
    this.#record = next;
  }
}

/** How long a claim's record must have stood still before a recovery may take it over, by default. */
export const DEFAULT_STALE_AFTER_MS = 15 * 60 * 1000;

/** Claims a suspension in a store for this resume, or returns undefined when it is spent. */
export async function takeClaim(
  store: ClaimStore,
  suspension: Suspension,
  decisions: Decisions,
  owner: string,
): Promise<StoredLedger | undefined> {
  const record = newClaim(suspension, decisions, owner);
  return (await store.claim(suspension.runId, suspension.id, record)) ? new StoredLedger(store, record) : undefined;
}

/**
 * Takes over the claim of a resume that did not finish (its process died), once it has stood
 * still for `staleAfterMs`: atomically, so of two recoveries one wins, and a resume still running
 * under the old owner stops at its next record (`claim_lost`).
 */
export async function takeOver(
  store: ClaimStore,
  suspension: Suspension,
  owner: string,
  staleAfterMs: number,
): Promise<{ ledger: StoredLedger; decisions: Decisions }> {
  const claim = await store.claimOf(suspension.id);
  const where = `suspension ${suspension.id} of run ${suspension.runId}`;
  if (claim === undefined)
    throw new SuspensionError('not_claimed', `There is no claim on ${where} to recover; resume it with agent.resume.`);
  if (claim.status === 'finished')
    throw new SuspensionError('already_resumed', `The resume of ${where} finished; there is nothing to recover.`);
  const age = Date.now() - Date.parse(claim.claimedAt);
  if (!(age >= staleAfterMs)) {
    throw new SuspensionError(
      'claim_active',
      `The claim on ${where} is held by ${claim.owner} and was last recorded ` +
        `${Math.max(0, Math.round(age / 1000))} s ago, less than ${Math.round(staleAfterMs / 1000)} s: it may ` +
        'still be running. Recover once you know its process stopped (pass staleAfterMs: 0), or later.',
    );
  }
  // A claim without a recorded decision (an older legate's) may have run its calls: their outcome is unknown, never run
  // again.
  const undecided = suspension.pending.filter((p) => !Object.hasOwn(claim.decisions, p.id));
  const taken: ClaimRecord = {
    ...claim,
    owner,
    claimedAt: new Date().toISOString(),
    decisions: { ...claim.decisions, ...Object.fromEntries(undecided.map((p) => [p.id, { approve: true }])) },
    calls: { ...claim.calls, ...Object.fromEntries(undecided.map((p) => [p.id, { state: 'unknown' as const }])) },
  };
  if (!(await store.updateClaim(suspension.id, claim.owner, taken)))
    throw new SuspensionError('claim_active', `Another recovery took the claim on ${where} over first.`);
  const decisions: Decisions = new Map(suspension.pending.map((p) => [p.id, recordedDecision(taken, p.id)]));
  return { ledger: new StoredLedger(store, taken), decisions };
}

/** The decision recorded for a call. */
function recordedDecision(claim: ClaimRecord, callId: string): { approve: boolean; reason?: string } {
  const decision = claim.decisions[callId]!;
  const approve = decision.approve === true;
  return typeof decision.reason === 'string' ? { approve, reason: decision.reason } : { approve };
}
