import { objectJsonText } from '../json/jsonText.js';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Suspension } from '../runtime/agentResult.js';
import { FileReadError, MAX_STRING_FILE_BYTES, readRegularFile } from '../files/readRegularFile.js';
import { createFileExclusive, removeStaleTemporaryFiles, writeFileAtomic } from '../files/writeFileAtomic.js';
import type { ClaimRecord } from '../runtime/approval/claimRecord.js';
import { RecordWriter, type StoreOptions } from './recordWriter.js';
import { alreadyClaimed, checkSchemaVersion, STORE_SCHEMA_VERSION, StoreError, type StateStore } from './stateStore.js';

/**
 * One JSON file per run in a folder, written atomically, and a folder per claimed suspension
 * under `claims/`, kept for good. A claim, and every later change of it, creates the next numbered
 * file exclusively (a hard link, atomic): of two processes at once, one wins.
 */
export class FileStateStore implements StateStore {
  readonly #claims: string;
  readonly #writer: RecordWriter;

  constructor(
    readonly directory: string,
    options: StoreOptions = {},
  ) {
    this.#writer = new RecordWriter(options);
    this.#claims = join(directory, 'claims');
    mkdirSync(this.#claims, { recursive: true });
    // Writers killed mid-write leave temporary files; those of processes that are gone are removed.
    removeStaleTemporaryFiles(directory);
    for (const entry of readdirSync(this.#claims, { withFileTypes: true }))
      if (entry.isDirectory()) removeStaleTemporaryFiles(join(this.#claims, entry.name));
    this.#keepLegacyClaims();
  }

  /**
   * Claims an older legate made (the run's file renamed to `<run>.<suspension>.claimed`) stay spent; their progress is
   * unknown.
   */
  #keepLegacyClaims(): void {
    for (const name of readdirSync(this.directory)) {
      const match = /^([^.]+)\.([^.]+)\.claimed$/.exec(name);
      const runId = match === null ? undefined : decodeName(match[1]!);
      if (runId === undefined || this.#current(match![2]!) !== undefined) continue;
      const record: ClaimRecord = {
        runId,
        suspensionId: match![2]!,
        owner: 'unknown',
        claimedAt: new Date(0).toISOString(),
        status: 'claimed',
        decisions: {},
        calls: {},
      };
      createFileExclusive(join(this.#claimFolder(record.suspensionId), '0.json'), objectJsonText(record));
    }
  }

  async save(suspension: Suspension): Promise<void> {
    const text = objectJsonText({
      schemaVersion: STORE_SCHEMA_VERSION,
      suspension: this.#writer.suspension(suspension),
    });
    if (this.#current(suspension.id) !== undefined) throw alreadyClaimed(suspension);
    writeFileAtomic(this.#path(suspension.runId), text);
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const path = this.#path(runId);
    const text = readIfPresent(path);
    if (text === undefined) return undefined;
    const record = parse(text, path) as { schemaVersion: unknown; suspension: Suspension };
    checkSchemaVersion(record.schemaVersion, path);
    return record.suspension;
  }

  /** Files in the folder that are not run records (a stray name, unreadable JSON) are skipped. */
  async list(options: { status?: 'suspended' | 'claimed' } = {}): Promise<string[]> {
    if (options.status === 'claimed') {
      return readdirSync(this.#claims).flatMap((folder) => {
        const claim = this.#current(decodeName(folder) ?? '\0')?.record;
        return claim?.status === 'claimed' ? [claim.runId] : [];
      });
    }
    const runs: string[] = [];
    for (const name of readdirSync(this.directory)) {
      const runId =
        name.endsWith('.json') && !name.startsWith('.') ? decodeName(name.slice(0, -'.json'.length)) : undefined;
      if (runId === undefined) continue;
      const suspension = await this.load(runId).catch(() => undefined);
      if (suspension !== undefined && this.#current(suspension.id) === undefined) runs.push(runId);
    }
    return runs;
  }

  async delete(runId: string): Promise<void> {
    rmSync(this.#path(runId), { force: true });
  }

  async claim(runId: string, suspensionId: string, record: ClaimRecord): Promise<boolean> {
    const stored = await this.load(runId);
    if (stored?.id !== suspensionId) return false;
    return createFileExclusive(
      join(this.#claimFolder(suspensionId), '0.json'),
      objectJsonText(this.#writer.claim(record)),
    );
  }

  async claimOf(suspensionId: string): Promise<ClaimRecord | undefined> {
    return this.#current(suspensionId)?.record;
  }

  async updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean> {
    const current = this.#current(suspensionId);
    if (current === undefined || current.record.owner !== owner) return false;
    return createFileExclusive(
      join(this.#claimFolder(suspensionId), `${current.sequence + 1}.json`),
      objectJsonText(this.#writer.claim(record)),
    );
  }

  /** A claim's latest record: the highest-numbered file in its folder. */
  #current(suspensionId: string): { sequence: number; record: ClaimRecord } | undefined {
    let names: string[];
    try {
      names = readdirSync(this.#claimFolder(suspensionId));
    } catch {
      return undefined;
    }
    const sequence = Math.max(
      -1,
      ...names.flatMap((name) => (/^\d+\.json$/.test(name) ? [Number.parseInt(name, 10)] : [])),
    );
    if (sequence < 0) return undefined;
    const path = join(this.#claimFolder(suspensionId), `${sequence}.json`);
    return { sequence, record: parse(readRegularFile(path, MAX_STRING_FILE_BYTES), path) as ClaimRecord };
  }

  #claimFolder(suspensionId: string): string {
    return join(this.#claims, encodeURIComponent(suspensionId));
  }

  #path(runId: string): string {
    return join(this.directory, `${encodeURIComponent(runId)}.json`);
  }
}

/** A record's text; a FIFO or a device in its place is refused (a FileReadError), never waited on. */
function readIfPresent(path: string): string | undefined {
  try {
    return readRegularFile(path, MAX_STRING_FILE_BYTES);
  } catch (error) {
    // Deleted between listing and reading (or never there): absent, not an error.
    if (error instanceof FileReadError && error.code === 'not_found') return undefined;
    throw error;
  }
}

function parse(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new StoreError(
      'unreadable_record',
      `${path} is not a record this store wrote (it is not valid JSON); move it out of the store's folder.`,
    );
  }
}

/** A file name's run id, or undefined for a name this store did not write (a stray `%` sequence). */
function decodeName(encoded: string): string | undefined {
  try {
    const decoded = decodeURIComponent(encoded);
    return encodeURIComponent(decoded) === encoded ? decoded : undefined;
  } catch {
    return undefined;
  }
}
