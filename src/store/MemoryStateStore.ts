import { objectJsonText } from '../json/jsonText.js';
import type { Suspension } from '../runtime/agentResult.js';
import type { ClaimRecord } from '../runtime/approval/claimRecord.js';
import { RecordWriter, type StoreOptions } from './recordWriter.js';
import { alreadyClaimed, type StateStore } from './stateStore.js';

/** Keeps suspensions in this process: for tests and for runs that need not survive a restart. */
export class MemoryStateStore implements StateStore {
  readonly #suspensions = new Map<string, { json: string; id: string }>();
  readonly #claims = new Map<string, string>();
  readonly #writer: RecordWriter;

  constructor(options: StoreOptions = {}) {
    this.#writer = new RecordWriter(options);
  }

  async save(suspension: Suspension): Promise<void> {
    if (this.#claims.has(suspension.id)) throw alreadyClaimed(suspension);
    this.#suspensions.set(suspension.runId, {
      json: objectJsonText(this.#writer.suspension(suspension)),
      id: suspension.id,
    });
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const record = this.#suspensions.get(runId);
    return record === undefined ? undefined : (JSON.parse(record.json) as Suspension);
  }

  async list(options: { status?: 'suspended' | 'claimed' } = {}): Promise<string[]> {
    if (options.status === 'claimed') {
      return [...this.#claims.values()]
        .map((json) => JSON.parse(json) as ClaimRecord)
        .filter((claim) => claim.status === 'claimed')
        .map((claim) => claim.runId);
    }
    return [...this.#suspensions].filter(([, record]) => !this.#claims.has(record.id)).map(([runId]) => runId);
  }

  async delete(runId: string): Promise<void> {
    this.#suspensions.delete(runId);
  }

  async claim(runId: string, suspensionId: string, record: ClaimRecord): Promise<boolean> {
    if (this.#suspensions.get(runId)?.id !== suspensionId || this.#claims.has(suspensionId)) return false;
    this.#claims.set(suspensionId, objectJsonText(this.#writer.claim(record)));
    return true;
  }

  async claimOf(suspensionId: string): Promise<ClaimRecord | undefined> {
    const json = this.#claims.get(suspensionId);
    return json === undefined ? undefined : (JSON.parse(json) as ClaimRecord);
  }

  async updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean> {
    const json = this.#claims.get(suspensionId);
    if (json === undefined || (JSON.parse(json) as ClaimRecord).owner !== owner) return false;
    this.#claims.set(suspensionId, objectJsonText(this.#writer.claim(record)));
    return true;
  }
}
