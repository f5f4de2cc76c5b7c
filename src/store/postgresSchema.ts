import type Pg from 'pg';
import { UsageError } from '../errors/UsageError.js';
import { STORE_SCHEMA_VERSION, StoreError } from './stateStore.js';

/**
 * A PostgreSQL schema name the store accepts: lower-case letters, digits and underscores, not
 * starting with a digit, at most 63 bytes (PostgreSQL's limit). Such a name means the same quoted
 * or not, so the tables are where `psql` looks for them.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema name to put in SQL, quoted, after checking it is one the store accepts. */
export function schemaIdentifier(schema: unknown): string {
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    const received = typeof schema === 'string' ? JSON.stringify(schema) : `a value of type ${typeof schema}`;
    throw new UsageError(
      'invalid_store_option',
      `PostgresStateStore's schema option must be a PostgreSQL schema name of lower-case letters, digits and ` +
        `underscores, starting with a letter or underscore, at most 63 characters (such as "legate"); it was ` +
        `${received}. Pass such a name, or leave the option out for "public".`,
    );
  }
  return `"${schema}"`;
}

/** The tables of a store, in `schema` (already quoted). */
function createTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.legate_meta (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ${schema}.legate_suspensions (
      run_id TEXT PRIMARY KEY,
      suspension_id TEXT NOT NULL,
      agent TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('suspended', 'claimed')),
      schema_version INTEGER NOT NULL,
      data TEXT NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ${schema}.legate_claims (
      suspension_id TEXT PRIMARY KEY,
      run_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('claimed', 'finished')),
      data TEXT NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    );
    INSERT INTO ${schema}.legate_meta (key, value) VALUES ('schema_version', '${STORE_SCHEMA_VERSION}')
      ON CONFLICT (key) DO NOTHING;`;
}

/**
 * Creates the store's schema and tables if they are missing and checks the version they were
 * written with: in one transaction, under an advisory lock on the schema's name, so processes that
 * start at once do not race on `CREATE` (PostgreSQL's `IF NOT EXISTS` is not safe against that).
 */
export async function prepareSchema(client: Pg.PoolClient, name: string): Promise<void> {
  const schema = schemaIdentifier(name);
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('legate store ' || $1, 0))", [name]);
    // Only what is missing: CREATE ... IF NOT EXISTS needs the CREATE privilege even when the object exists,
    // and an application's role may have none once the tables are made.
    const tables = await client.query(
      "SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename IN ('legate_meta', 'legate_suspensions', " +
        "'legate_claims')",
      [name],
    );
    if (tables.rowCount !== 3) {
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
      await client.query(createTables(schema));
    }
    const version = await client.query(`SELECT value FROM ${schema}.legate_meta WHERE key = 'schema_version'`);
    checkDatabaseVersion(version.rows[0]?.value, name);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function checkDatabaseVersion(value: unknown, schema: string): void {
  if (value === String(STORE_SCHEMA_VERSION)) return;
  throw new StoreError(
    'schema_version',
    `The legate tables in PostgreSQL schema "${schema}" were written with store schema version ${String(value)}; ` +
      `this legate reads version ${STORE_SCHEMA_VERSION}. Upgrade legate in this application, or give it a schema ` +
      'of its own (the schema option).',
  );
}
