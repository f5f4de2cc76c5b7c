import type { Suspension } from '../runtime/agentResult.js';
import type { ClaimRecord, ClaimStore } from '../runtime/approval/claimRecord.js';
import { LegateError } from '../errors/LegateError.js';

/** The version of the stored record's shape; a store refuses records from a newer one. */
export const STORE_SCHEMA_VERSION = 1;

/**
 * Where a suspended run waits, by run id, until a person decides; and the record of every claim,
 * by suspension id, kept for good: a suspension once claimed is spent, whatever is saved later.
 */
export interface StateStore extends ClaimStore {
  /**
   * Saves a run's current suspension, replacing the one before it. Refused (`StoreError`,
   * code `already_claimed`) for a suspension that was claimed: a spent suspension never waits again.
   */
  save(suspension: Suspension): Promise<void>;
  load(runId: string): Promise<Suspension | undefined>;
  /**
   * Run ids by state: `suspended` (the default) waits for a decision; `claimed` was taken by a
   * resume that has not recorded its end (running now, or its process died: see `agent.recover`).
   */
  list(options?: { status?: 'suspended' | 'claimed' }): Promise<string[]>;
  /** Forgets the run's suspension; its claim records stay, so a spent suspension stays spent. */
  delete(runId: string): Promise<void>;
  /**
   * Takes the run's current suspension for resuming, once: true for the first caller, false for
   * every later one (the suspension id is recorded as consumed, for good), or when the stored
   * suspension is not this one. Atomic, so two processes cannot both win.
   */
  claim(runId: string, suspensionId: string, record: ClaimRecord): Promise<boolean>;
  /** The claim of a suspension, if it was claimed. */
  claimOf(suspensionId: string): Promise<ClaimRecord | undefined>;
  /**
   * Replaces a claim's record if it is still held by `owner` (compare-and-set, atomic): a
   * resume records its progress this way, and a recovery takes a claim over. False if another
   * owner holds it now.
   */
  updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean>;
}

/** Why a store refused. */
export type StoreErrorCode =
  | 'schema_version'
  | 'already_claimed'
  | 'secret_in_record'
  | 'redaction_breaks_signature'
  | 'unreadable_record'
  /** The store's database could not be reached, or the connection failed during the operation. */
  | 'store_unavailable';

/** A store refused to write a record, or cannot read one. */
export class StoreError extends LegateError {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function checkSchemaVersion(version: unknown, where: string): void {
  if (version !== STORE_SCHEMA_VERSION) {
    throw new StoreError(
      'schema_version',
      `${where} was written with store schema version ${String(version)}; this legate reads version ` +
        `${STORE_SCHEMA_VERSION}.`,
    );
  }
}

export function alreadyClaimed(suspension: Suspension): StoreError {
  return new StoreError(
    'already_claimed',
    `Suspension ${suspension.id} of run ${suspension.runId} was already claimed by a resume, so it is spent ` +
      'and was not saved again. Save the suspension the resumed run returned (it has a new id); to finish a ' +
      'resume whose process died, use agent.recover.',
  );
}
