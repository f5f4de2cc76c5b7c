import type BetterSqlite3 from 'better-sqlite3';
import { objectJsonText } from '../json/jsonText.js';
import type { Suspension } from '../runtime/agentResult.js';
import type { ClaimRecord } from '../runtime/approval/claimRecord.js';
import { RecordWriter, type StoreOptions } from './recordWriter.js';
import { alreadyClaimed, checkSchemaVersion, STORE_SCHEMA_VERSION, type StateStore } from './stateStore.js';
import { loadBetterSqlite3 } from './betterSqlite3.js';

const Database = loadBetterSqlite3();

/**
 * Suspensions in a SQLite database file (WAL mode): they survive the process, a crash
 * included. A claim inserts the suspension's id into a table of claims whose rows are never
 * removed, in one transaction with the check that it is the run's current suspension: exactly
 * one resumer wins, and a suspension saved again after its claim is refused.
 *
 * Imported from `legate/sqlite`; needs the optional peer dependency better-sqlite3
 * (`npm install better-sqlite3`), and importing it without that package throws a
 * `MissingPeerDependencyError` (exported by `legate`, code `missing_peer_dependency`).
 */
export class SqliteStateStore implements StateStore {
  readonly #db: BetterSqlite3.Database;
  readonly #writer: RecordWriter;

  constructor(
    readonly file: string,
    options: StoreOptions = {},
  ) {
    this.#writer = new RecordWriter(options);
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS legate_suspensions (
        run_id TEXT PRIMARY KEY,
        suspension_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('suspended', 'claimed')),
        schema_version INTEGER NOT NULL,
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS legate_claims (
        suspension_id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('claimed', 'finished')),
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- Claims made before the claims table existed stay spent (their progress is unknown).
      INSERT OR IGNORE INTO legate_claims (suspension_id, run_id, owner, status, data, updated_at)
        SELECT suspension_id, run_id, 'unknown', 'claimed',
               json_object('runId', run_id, 'suspensionId', suspension_id, 'owner', 'unknown',
                           'claimedAt', updated_at, 'status', 'claimed', 'decisions', json('{}'), 'calls', json('{}')),
               updated_at
        FROM legate_suspensions WHERE status = 'claimed';`);
  }

  async save(suspension: Suspension): Promise<void> {
    const data = objectJsonText(this.#writer.suspension(suspension));
    this.#db
      .transaction(() => {
        if (this.#db.prepare('SELECT 1 FROM legate_claims WHERE suspension_id = ?').get(suspension.id) !== undefined)
          throw alreadyClaimed(suspension);
        this.#db
          .prepare(
            `INSERT INTO legate_suspensions (run_id, suspension_id, agent, status, schema_version, data, updated_at)
             VALUES (@runId, @id, @agent, 'suspended', @version, @data, @now)
             ON CONFLICT (run_id) DO UPDATE SET suspension_id = @id, agent = @agent, status = 'suspended',
               schema_version = @version, data = @data, updated_at = @now`,
          )
          .run({
            runId: suspension.runId,
            id: suspension.id,
            agent: suspension.agent,
            version: STORE_SCHEMA_VERSION,
            data,
            now: new Date().toISOString(),
          });
      })
      .immediate();
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const row = this.#db.prepare('SELECT schema_version, data FROM legate_suspensions WHERE run_id = ?').get(runId) as
      | { schema_version: number; data: string }
      | undefined;
    if (row === undefined) return undefined;
    checkSchemaVersion(row.schema_version, `${this.file} (run ${runId})`);
    return JSON.parse(row.data) as Suspension;
  }

  async list(options: { status?: 'suspended' | 'claimed' } = {}): Promise<string[]> {
    const query =
      options.status === 'claimed'
        ? "SELECT run_id FROM legate_claims WHERE status = 'claimed' ORDER BY updated_at"
        : 'SELECT run_id FROM legate_suspensions s WHERE NOT EXISTS (SELECT 1 FROM legate_claims c WHERE ' +
          'c.suspension_id = s.suspension_id) ORDER BY updated_at';
    return (this.#db.prepare(query).all() as { run_id: string }[]).map((row) => row.run_id);
  }

  async delete(runId: string): Promise<void> {
    this.#db.prepare('DELETE FROM legate_suspensions WHERE run_id = ?').run(runId);
  }

  async claim(runId: string, suspensionId: string, record: ClaimRecord): Promise<boolean> {
    const data = objectJsonText(this.#writer.claim(record));
    const now = new Date().toISOString();
    return this.#db
      .transaction(() => {
        const inserted = this.#db
          .prepare(
            `INSERT INTO legate_claims (suspension_id, run_id, owner, status, data, updated_at)
             SELECT suspension_id, run_id, @owner, 'claimed', @data, @now FROM legate_suspensions
             WHERE run_id = @runId AND suspension_id = @suspensionId
             ON CONFLICT (suspension_id) DO NOTHING`,
          )
          .run({ owner: record.owner, data, now, runId, suspensionId });
        if (inserted.changes !== 1) return false;
        this.#db
          .prepare("UPDATE legate_suspensions SET status = 'claimed', updated_at = ? WHERE run_id = ?")
          .run(now, runId);
        return true;
      })
      .immediate();
  }

  async claimOf(suspensionId: string): Promise<ClaimRecord | undefined> {
    const row = this.#db.prepare('SELECT data FROM legate_claims WHERE suspension_id = ?').get(suspensionId) as
      | { data: string }
      | undefined;
    return row === undefined ? undefined : (JSON.parse(row.data) as ClaimRecord);
  }

  async updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean> {
    const data = objectJsonText(this.#writer.claim(record));
    const update = this.#db.prepare(
      'UPDATE legate_claims SET owner = ?, status = ?, data = ?, updated_at = ? WHERE suspension_id = ? AND owner = ?',
    );
    return update.run(record.owner, record.status, data, new Date().toISOString(), suspensionId, owner).changes === 1;
  }

  close(): void {
    this.#db.close();
  }
}
