import type { Suspension } from '../runtime/suspension.js';
import type { StateStore } from './stateStore.js';

/** Keeps suspensions in this process: for tests and for runs that need not survive a restart. */
export class MemoryStateStore implements StateStore {
  readonly #records = new Map<string, { json: string; claimed: boolean }>();

  async save(suspension: Suspension): Promise<void> {
    this.#records.set(suspension.runId, { json: JSON.stringify(suspension), claimed: false });
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const record = this.#records.get(runId);
    return record === undefined ? undefined : (JSON.parse(record.json) as Suspension);
  }

  async list(): Promise<string[]> {
    return [...this.#records].filter(([, record]) => !record.claimed).map(([runId]) => runId);
  }

  async delete(runId: string): Promise<void> {
    this.#records.delete(runId);
  }

  async claim(runId: string, suspensionId: string): Promise<boolean> {
    const record = this.#records.get(runId);
    if (record === undefined || record.claimed || (JSON.parse(record.json) as Suspension).id !== suspensionId) return false;
    record.claimed = true;
    return true;
  }
}
