import type { Suspension } from '../runtime/suspension.js';

/** The version of the stored record's shape; a store refuses records from a newer one. */
export const STORE_SCHEMA_VERSION = 1;

/** Where a suspended run waits, by run id, until a person decides. */
export interface StateStore {
  /** Saves a run's current suspension, replacing the one before it. */
  save(suspension: Suspension): Promise<void>;
  load(runId: string): Promise<Suspension | undefined>;
  /** Run ids waiting for a decision. */
  list(): Promise<string[]>;
  delete(runId: string): Promise<void>;
  /**
   * Takes a suspension for resuming, once: true for the first caller, false for every later
   * one, or when the stored suspension is not this one. Atomic, so two processes cannot both win.
   */
  claim(runId: string, suspensionId: string): Promise<boolean>;
}

/** A stored record that this legate cannot read. */
export class StoreError extends Error {
  override name = 'StoreError';
}

export function checkSchemaVersion(version: unknown, where: string): void {
  if (version !== STORE_SCHEMA_VERSION) {
    throw new StoreError(`${where} was written with store schema version ${String(version)}; this legate reads version ${STORE_SCHEMA_VERSION}.`);
  }
}
