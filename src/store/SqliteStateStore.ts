import Database from 'better-sqlite3';
import type { Suspension } from '../runtime/suspension.js';
import { checkSchemaVersion, STORE_SCHEMA_VERSION, type StateStore } from './stateStore.js';

/**
 * Suspensions in a SQLite database file (WAL mode): they survive the process, a crash
 * included, and a claim is one conditional UPDATE, so exactly one resumer wins.
 */
export class SqliteStateStore implements StateStore {
  readonly #db: Database.Database;

  constructor(readonly file: string) {
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS legate_suspensions (
        run_id TEXT PRIMARY KEY,
        suspension_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('suspended', 'claimed')),
        schema_version INTEGER NOT NULL,
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`);
  }

  async save(suspension: Suspension): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO legate_suspensions (run_id, suspension_id, agent, status, schema_version, data, updated_at)
         VALUES (@runId, @id, @agent, 'suspended', @version, @data, @now)
         ON CONFLICT (run_id) DO UPDATE SET suspension_id = @id, agent = @agent, status = 'suspended', schema_version = @version, data = @data, updated_at = @now`,
      )
      .run({ runId: suspension.runId, id: suspension.id, agent: suspension.agent, version: STORE_SCHEMA_VERSION, data: JSON.stringify(suspension), now: new Date().toISOString() });
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const row = this.#db.prepare('SELECT schema_version, data FROM legate_suspensions WHERE run_id = ?').get(runId) as { schema_version: number; data: string } | undefined;
    if (row === undefined) return undefined;
    checkSchemaVersion(row.schema_version, `${this.file} (run ${runId})`);
    return JSON.parse(row.data) as Suspension;
  }

  async list(): Promise<string[]> {
    return (this.#db.prepare("SELECT run_id FROM legate_suspensions WHERE status = 'suspended' ORDER BY updated_at").all() as { run_id: string }[]).map((row) => row.run_id);
  }

  async delete(runId: string): Promise<void> {
    this.#db.prepare('DELETE FROM legate_suspensions WHERE run_id = ?').run(runId);
  }

  async claim(runId: string, suspensionId: string): Promise<boolean> {
    const update = this.#db.prepare("UPDATE legate_suspensions SET status = 'claimed', updated_at = ? WHERE run_id = ? AND suspension_id = ? AND status = 'suspended'");
    return update.run(new Date().toISOString(), runId, suspensionId).changes === 1;
  }

  close(): void {
    this.#db.close();
  }
}
