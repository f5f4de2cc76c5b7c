import type Pg from 'pg';
import { UsageError } from '../errors/UsageError.js';
import { objectJsonText } from '../json/jsonText.js';
import type { ClaimRecord } from '../runtime/approval/claimRecord.js';
import type { Suspension } from '../runtime/agentResult.js';
import { loadPg } from './pg.js';
import { prepareSchema, schemaIdentifier } from './postgresSchema.js';
import { unavailableOrCause } from './postgresUnavailable.js';
import { RecordWriter, type StoreOptions } from './recordWriter.js';
import { alreadyClaimed, checkSchemaVersion, STORE_SCHEMA_VERSION, type StateStore, StoreError } from './stateStore.js';

const { Pool } = loadPg();

/** Where a PostgresStateStore keeps its tables, besides what every store does to its records. */
export interface PostgresStoreOptions extends StoreOptions {
  /** The PostgreSQL schema of the store's tables (created if missing): `public` unless given. */
  schema?: string;
}

/** The pool an application owns, or what the store makes its own pool from. */
export type PostgresConnection = Pg.Pool | string | Pg.PoolConfig;

const UNKNOWN = 'It may or may not have taken effect: claimOf (or load) on a working connection tells.';
const NOT_DONE = 'Nothing was changed; try again once the database is reachable.';

/**
 * Suspensions in PostgreSQL, shared by every process and machine that connects to the database.
 * A claim inserts the suspension's id into a table of claims whose rows are never removed, in one
 * statement that locks the run's row and checks that it holds this suspension: exactly one resumer
 * wins, and a suspension saved again after its claim is refused. The tables are created on first
 * use, under an advisory lock, and carry their schema version.
 *
 * Imported from `legate/postgres`; needs the optional peer dependency pg (`npm install pg`), and
 * importing it without that package throws a `MissingPeerDependencyError` (code
 * `missing_peer_dependency`).
 */
export class PostgresStateStore implements StateStore {
  readonly schema: string;
  readonly #pool: Pg.Pool;
  readonly #ownsPool: boolean;
  readonly #writer: RecordWriter;
  readonly #tables: { suspensions: string; claims: string };
  #ready: Promise<void> | undefined;

  /**
   * `connection` is a `pg.Pool` the application owns (and ends), or a connection string or
   * `pg.PoolConfig` from which the store makes a pool of its own, ended by `close()`.
   */
  constructor(connection: PostgresConnection, options: PostgresStoreOptions = {}) {
    const { schema = 'public', ...storeOptions } = options;
    const quoted = schemaIdentifier(schema);
    this.schema = schema;
    this.#tables = { suspensions: `${quoted}.legate_suspensions`, claims: `${quoted}.legate_claims` };
    this.#writer = new RecordWriter(storeOptions);
    if (isPool(connection)) {
      this.#pool = connection;
      this.#ownsPool = false;
    } else if (isClient(connection)) {
      throw new UsageError(
        'invalid_store_option',
        'PostgresStateStore needs a pg.Pool, a connection string or a pg PoolConfig; it was given a single ' +
          'connection (a pg.Client), on which its transactions and concurrent operations would interleave. Pass ' +
          'a pg.Pool (new pg.Pool({ connectionString })) instead.',
      );
    } else if (typeof connection === 'string' || (typeof connection === 'object' && connection !== null)) {
      this.#pool = new Pool(typeof connection === 'string' ? { connectionString: connection } : connection);
      // An idle connection the server drops is removed from the pool; without a listener it would crash the process.
      this.#pool.on('error', () => undefined);
      this.#ownsPool = true;
    } else {
      throw new UsageError(
        'invalid_store_option',
        `PostgresStateStore needs a pg.Pool, a connection string or a pg PoolConfig; it was given ` +
          `${connection === null ? 'null' : `a value of type ${typeof connection}`}. Pass one of those ` +
          `(for example process.env.DATABASE_URL).`,
      );
    }
  }

  async save(suspension: Suspension): Promise<void> {
    const data = objectJsonText(this.#writer.suspension(suspension));
    const { suspensions, claims } = this.#tables;
    await this.#transaction(`Saving suspension ${suspension.id} of run ${suspension.runId}`, async (client) => {
      // The upsert locks the run's row first, so a claim of it in progress commits before the check below.
      await client.query(
        `INSERT INTO ${suspensions} (run_id, suspension_id, agent, status, schema_version, data, updated_at)
         VALUES ($1, $2, $3, 'suspended', $4, $5, clock_timestamp())
         ON CONFLICT (run_id) DO UPDATE SET suspension_id = $2, agent = $3, status = 'suspended',
           schema_version = $4, data = $5, updated_at = clock_timestamp()`,
        [suspension.runId, suspension.id, suspension.agent, STORE_SCHEMA_VERSION, data],
      );
      const claimed = await client.query(`SELECT 1 FROM ${claims} WHERE suspension_id = $1`, [suspension.id]);
      if (claimed.rowCount !== 0) throw alreadyClaimed(suspension);
    });
  }

  async load(runId: string): Promise<Suspension | undefined> {
    const { rows } = await this.#query<{ schema_version: number; data: string }>(
      `Loading run ${runId}`,
      NOT_DONE,
      `SELECT schema_version, data FROM ${this.#tables.suspensions} WHERE run_id = $1`,
      [runId],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    checkSchemaVersion(row.schema_version, `PostgreSQL schema "${this.schema}" (run ${runId})`);
    return JSON.parse(row.data) as Suspension;
  }

  async list(options: { status?: 'suspended' | 'claimed' } = {}): Promise<string[]> {
    const { suspensions, claims } = this.#tables;
    const query =
      options.status === 'claimed'
        ? `SELECT run_id FROM ${claims} WHERE status = 'claimed' ORDER BY updated_at, run_id`
        : `SELECT run_id FROM ${suspensions} s WHERE NOT EXISTS (SELECT 1 FROM ${claims} c WHERE ` +
          'c.suspension_id = s.suspension_id) ORDER BY updated_at, run_id';
    const { rows } = await this.#query<{ run_id: string }>('Listing runs', NOT_DONE, query, []);
    return rows.map((row) => row.run_id);
  }

  async delete(runId: string): Promise<void> {
    await this.#query(`Deleting run ${runId}`, UNKNOWN, `DELETE FROM ${this.#tables.suspensions} WHERE run_id = $1`, [
      runId,
    ]);
  }

  async claim(runId: string, suspensionId: string, record: ClaimRecord): Promise<boolean> {
    const data = objectJsonText(this.#writer.claim(record));
    const { suspensions, claims } = this.#tables;
    // One statement, so one transaction: the run's row is locked while the claim is inserted, and the
    // claims table's key lets only one insert of this suspension id ever succeed.
    const { rowCount } = await this.#query(
      `Claiming suspension ${suspensionId} of run ${runId}`,
      UNKNOWN,
      `WITH current AS (
         SELECT run_id, suspension_id FROM ${suspensions} WHERE run_id = $1 AND suspension_id = $2 FOR UPDATE
       ), claimed AS (
         INSERT INTO ${claims} (suspension_id, run_id, owner, status, data, updated_at)
         SELECT suspension_id, run_id, $3, 'claimed', $4, clock_timestamp() FROM current
         ON CONFLICT (suspension_id) DO NOTHING
         RETURNING run_id
       )
       UPDATE ${suspensions} SET status = 'claimed', updated_at = clock_timestamp()
       WHERE run_id IN (SELECT run_id FROM claimed)`,
      [runId, suspensionId, record.owner, data],
    );
    return rowCount === 1;
  }

  async claimOf(suspensionId: string): Promise<ClaimRecord | undefined> {
    const { rows } = await this.#query<{ data: string }>(
      `Reading the claim on suspension ${suspensionId}`,
      NOT_DONE,
      `SELECT data FROM ${this.#tables.claims} WHERE suspension_id = $1`,
      [suspensionId],
    );
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].data) as ClaimRecord);
  }

  /**
   * A connection that fails under the update (terminated, reset) is discarded and the update is tried once more on
   * another: the record of an approved call's outcome, written after its effect, survives one lost connection.
   * Repeating it is safe, since it applies only while `owner` holds the claim.
   */
  async updateClaim(suspensionId: string, owner: string, record: ClaimRecord): Promise<boolean> {
    const data = objectJsonText(this.#writer.claim(record));
    const update = (what: string) =>
      this.#query(
        what,
        UNKNOWN,
        `UPDATE ${this.#tables.claims} SET owner = $1, status = $2, data = $3, updated_at = clock_timestamp()
         WHERE suspension_id = $4 AND owner = $5`,
        [record.owner, record.status, data, suspensionId, owner],
      );
    try {
      return (await update(`Updating the claim on suspension ${suspensionId}`)).rowCount === 1;
    } catch (error) {
      if (!(error instanceof StoreError && error.code === 'store_unavailable')) throw error;
    }
    const retried = `Updating the claim on suspension ${suspensionId} (tried twice, on two connections)`;
    if ((await update(retried)).rowCount === 1) return true;
    // Nothing matched: the first attempt may have committed before its connection failed, and then a claim taken
    // over (a new owner) no longer matches `owner`. The claim holding exactly this record says that it did.
    const now = await this.claimOf(suspensionId);
    return now?.owner === record.owner && now.claimedAt === record.claimedAt && now.status === record.status;
  }

  /** Ends the pool the store made from a connection string or config; a pool the application passed is its own. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }

  /** Creates the tables (once per store) and checks their version before the first operation. */
  #prepared(): Promise<void> {
    this.#ready ??= this.#withClient('Preparing the store tables', NOT_DONE, (client) =>
      prepareSchema(client, this.schema),
    ).catch((error: unknown) => {
      this.#ready = undefined; // a later operation tries again: the server may be back
      throw error;
    });
    return this.#ready;
  }

  async #query<Row extends Pg.QueryResultRow>(
    what: string,
    outcome: string,
    text: string,
    values: unknown[],
  ): Promise<Pg.QueryResult<Row>> {
    await this.#prepared();
    try {
      return await this.#pool.query<Row>(text, values);
    } catch (error) {
      throw unavailableOrCause(error, what, outcome);
    }
  }

  async #transaction(what: string, work: (client: Pg.PoolClient) => Promise<void>): Promise<void> {
    await this.#prepared();
    await this.#withClient(what, UNKNOWN, async (client) => {
      await client.query('BEGIN');
      try {
        await work(client);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async #withClient<T>(what: string, outcome: string, work: (client: Pg.PoolClient) => Promise<T>): Promise<T> {
    let client: Pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw unavailableOrCause(error, what, NOT_DONE);
    }
    // A connection that fails while checked out also emits `error` (now or a moment later); its query rejects
    // with the same fault, reported below. Unheard, the event would end the process.
    const ignore = () => undefined;
    client.on('error', ignore);
    try {
      const result = await work(client);
      client.removeListener('error', ignore);
      client.release();
      return result;
    } catch (error) {
      const lost = unavailableOrCause(error, what, outcome);
      if (lost === error) {
        client.removeListener('error', ignore);
        client.release();
      } else {
        client.release(error as Error); // discarded, with the listener, not handed to the next operation
      }
      throw lost;
    }
  }
}

/** Something that runs queries: a pool (it counts its idle connections) or a single client. */
function isClient(connection: unknown): boolean {
  const candidate = connection as { query?: unknown; connect?: unknown } | null;
  return typeof candidate?.query === 'function' && typeof candidate.connect === 'function';
}

function isPool(connection: unknown): connection is Pg.Pool {
  return isClient(connection) && typeof (connection as { idleCount?: unknown }).idleCount === 'number';
}
