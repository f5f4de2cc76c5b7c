import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Suspension } from '../runtime/suspension.js';
import { writeFileAtomic } from '../files/writeFileAtomic.js';
import { checkSchemaVersion, STORE_SCHEMA_VERSION, type StateStore } from './stateStore.js';

/**
 * One JSON file per run in a folder, written atomically. A claim renames the file aside, which
 * the file system does atomically: of two processes claiming at once, one rename succeeds.
 */
export class FileStateStore implements StateStore {
  constructor(readonly directory: string) {
    mkdirSync(directory, { recursive: true });
  }

  async save(suspension: Suspension): Promise<void> {
    writeFileAtomic(this.#path(suspension.runId), JSON.stringify({ schemaVersion: STORE_SCHEMA_VERSION, suspension }, null, 2));
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const path = this.#path(runId);
    if (!existsSync(path)) return undefined;
    const record = JSON.parse(readFileSync(path, 'utf8')) as { schemaVersion: unknown; suspension: Suspension };
    checkSchemaVersion(record.schemaVersion, path);
    return record.suspension;
  }

  async list(): Promise<string[]> {
    return readdirSync(this.directory)
      .filter((name) => name.endsWith('.json'))
      .map((name) => decodeURIComponent(name.slice(0, -'.json'.length)));
  }

  async delete(runId: string): Promise<void> {
    rmSync(this.#path(runId), { force: true });
  }

  async claim(runId: string, suspensionId: string): Promise<boolean> {
    const stored = await this.load(runId);
    if (stored?.id !== suspensionId) return false;
    try {
      renameSync(this.#path(runId), join(this.directory, `${encodeURIComponent(runId)}.${suspensionId}.claimed`));
      return true;
    } catch {
      return false; // another process renamed it first
    }
  }

  #path(runId: string): string {
    return join(this.directory, `${encodeURIComponent(runId)}.json`);
  }
}
