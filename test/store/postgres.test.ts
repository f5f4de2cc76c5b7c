import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { MissingPeerDependencyError, StoreError, UsageError } from '../../src/index.js';
import { PG, loadPg } from '../../src/store/pg.js';
import { PostgresStateStore } from '../../src/store/postgres.js';
import { caught } from '../support/caught.js';
import { freshSchema, usePostgresStores } from '../support/postgresDatabase.js';

import { aSuspension, claimFor } from '../support/suspendedPayment.js';

const postgresStore = usePostgresStores();

async function withPool<T>(use: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: inject('postgresUrl') });
  try {
    return await use(pool);
  } finally {
    await pool.end();
  }
}

describe('loading pg for legate/postgres', () => {
  it('says how to install it when it cannot be found from where legate is', () => {
    const elsewhere = createRequire(join(tmpdir(), 'legate-no-such-project', 'index.js'));
    const thrown = caught(() => loadPg(elsewhere), MissingPeerDependencyError);
    expect(thrown).toMatchObject({ code: 'missing_peer_dependency', peer: 'pg', installCommand: 'npm install pg' });
    expect(thrown.message).toMatch(/^legate\/postgres needs the package pg, which is not installed\./);
    expect(thrown.message).toMatch(/ Install it in your project: npm install pg\.$/);
  });

  it('returns the client where it is installed', () => {
    expect(typeof loadPg().Pool).toBe('function');
    expect(PG.install).toBe('npm install pg');
  });
});

describe('PostgresStateStore options', () => {
  it('takes a schema name of lower-case letters, digits and underscores, and refuses any other value', async () => {
    const valid = fc.stringMatching(/^[a-z_][a-z0-9_]{0,62}$/);
    const other = fc.oneof(
      fc.string({ maxLength: 70 }).filter((name) => !/^[a-z_][a-z0-9_]{0,62}$/.test(name)),
      valid.map((name) => `${name}"; DROP TABLE x; --`),
      fc.constantFrom('', 'Legate', '1abc', 'a-b', 'a'.repeat(64), 'légate'),
      fc.constantFrom(42, null, true, ['x']),
    );
    const url = inject('postgresUrl');
    await fc.assert(
      fc.asyncProperty(valid, async (schema) => {
        const store = new PostgresStateStore(url, { schema });
        expect(store.schema).toBe(schema);
        await store.close();
      }),
      { numRuns: 30 },
    );
    fc.assert(
      fc.property(other, (schema) => {
        const error = caught(() => new PostgresStateStore(url, { schema: schema as string }), UsageError);
        expect(error.code).toBe('invalid_store_option');
        expect(error.message).toContain('must be a PostgreSQL schema name of lower-case letters');
        expect(error.message).toContain(typeof schema === 'string' ? JSON.stringify(schema) : typeof schema);
      }),
    );
  });

  it('refuses a connection that is neither a pool, a connection string nor a config, saying what it got', () => {
    for (const [connection, got] of [
      [42, 'a value of type number'],
      [null, 'null'],
      [undefined, 'a value of type undefined'],
    ] as const) {
      const error = caught(() => new PostgresStateStore(connection as never), UsageError);
      expect(error).toMatchObject({ code: 'invalid_store_option' });
      expect(error.message).toContain(`a pg.Pool, a connection string or a pg PoolConfig; it was given ${got}.`);
    }
  });

  it('refuses a single pg.Client, on which its operations would interleave, and says to pass a pool', () => {
    const error = caught(() => new PostgresStateStore(new pg.Client(inject('postgresUrl')) as never), UsageError);
    expect(error).toMatchObject({ code: 'invalid_store_option' });
    expect(error.message).toContain('it was given a single connection (a pg.Client)');
    expect(error.message).toContain('Pass a pg.Pool');
  });

  it('uses a pool the application owns and leaves it open on close()', async () => {
    await withPool(async (pool) => {
      const store = new PostgresStateStore(pool, { schema: freshSchema() });
      const suspension = await aSuspension();
      await store.save(suspension);
      await store.close();
      expect(await store.load(suspension.runId)).toEqual(suspension);
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });
  });

  it('says the database is unavailable, and that nothing changed, when it cannot connect', async () => {
    const store = new PostgresStateStore('postgres://legate:legate@127.0.0.1:1/postgres');
    const error = await store.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'store_unavailable', cause: { code: 'ECONNREFUSED' } });
    expect((error as Error).message).toMatch(/^Preparing the store tables did not complete: the connection to /);
    expect((error as Error).message).toContain('Nothing was changed');
    await store.close();
  });
});

describe('PostgresStateStore schema versions', () => {
  it('creates its tables on first use and records their version', async () => {
    const store = postgresStore();
    expect(await store.list()).toEqual([]);
    const rows = await withPool(async (pool) => {
      const tables = await pool.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [store.schema],
      );
      const meta = await pool.query(`SELECT key, value FROM ${store.schema}.legate_meta`);
      return { tables: tables.rows.map((row) => row.table_name), meta: meta.rows };
    });
    expect(rows).toEqual({
      tables: ['legate_claims', 'legate_meta', 'legate_suspensions'],
      meta: [{ key: 'schema_version', value: '1' }],
    });
  });

  it('refuses tables a newer legate wrote, before reading or writing anything', async () => {
    const first = postgresStore();
    const suspension = await aSuspension();
    await first.save(suspension);
    await withPool((pool) => pool.query(`UPDATE ${first.schema}.legate_meta SET value = '2'`));
    const later = postgresStore({ schema: first.schema });
    for (const operation of [() => later.load(suspension.runId), () => later.save(suspension), () => later.list()]) {
      const error = await operation().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ code: 'schema_version' });
      expect((error as Error).message).toContain(`schema "${first.schema}" were written with store schema version 2`);
      expect((error as Error).message).toContain('this legate reads version 1');
    }
  });

  it('refuses a record written with another schema version, saying which it reads', async () => {
    const store = postgresStore();
    const suspension = await aSuspension();
    await store.save(suspension);
    await withPool((pool) => pool.query(`UPDATE ${store.schema}.legate_suspensions SET schema_version = 2`));
    const error = await store.load(suspension.runId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'schema_version' });
    expect((error as Error).message).toContain('this legate reads version 1');
  });
});

describe('PostgresStateStore privileges', () => {
  it('needs only SELECT, INSERT, UPDATE and DELETE on its tables once they exist', async () => {
    const owner = postgresStore();
    const suspension = await aSuspension();
    await owner.save(suspension);
    const role = `app_${freshSchema()}`;
    await withPool(async (pool) => {
      await pool.query(`CREATE ROLE ${role} LOGIN PASSWORD 'app'`);
      await pool.query(`GRANT USAGE ON SCHEMA ${owner.schema} TO ${role}`);
      await pool.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${owner.schema} TO ${role}`);
    });
    const url = new URL(inject('postgresUrl'));
    url.username = role;
    url.password = 'app';
    const app = postgresStore({ schema: owner.schema });
    const limited = new PostgresStateStore(url.toString(), { schema: owner.schema });
    try {
      expect(await limited.load(suspension.runId)).toEqual(suspension);
      const record = { ...claimFor(suspension), owner: 'app' };
      expect(await limited.claim(suspension.runId, suspension.id, record)).toBe(true);
      expect(await limited.updateClaim(suspension.id, 'app', { ...record, status: 'finished' })).toBe(true);
      expect(await app.claimOf(suspension.id)).toMatchObject({ owner: 'app', status: 'finished' });
      await limited.delete(suspension.runId);
      expect(await app.load(suspension.runId)).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});
