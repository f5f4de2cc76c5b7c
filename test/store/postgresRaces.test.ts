import { setTimeout as pause } from 'node:timers/promises';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError, reply, type ClaimRecord } from '../../src/index.js';
import { freshSchema, postgresReady, usePostgresStores } from '../support/postgresDatabase.js';
import { treasurer } from '../support/suspendedPayment.js';

const postgresStore = usePostgresStores();
let admin: pg.Pool;
beforeAll(async () => {
  admin = new pg.Pool({ connectionString: await postgresReady() });
});
afterAll(() => admin.end());

const claimFor = (runId: string, suspensionId: string, owner: string): ClaimRecord => ({
  runId,
  suspensionId,
  owner,
  claimedAt: new Date().toISOString(),
  status: 'claimed',
  decisions: {},
  calls: {},
});

/** The backend of the store's statement inserting into `table`, once it waits on a lock another connection holds. */
async function waitingOn(schema: string, table: string): Promise<number> {
  for (;;) {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
      [`%INSERT INTO "${schema}".${table}%`],
    );
    if (rows[0] !== undefined) return rows[0].pid;
    await pause(10);
  }
}

describe('PostgresStateStore: first use by many connections at once', () => {
  it('creates the schema and its tables once, and every store works', async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 8 }, () => postgresStore({ schema }));
    const results = await Promise.allSettled(stores.map((store) => store.list()));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const { rows } = await admin.query(`SELECT key, value FROM ${schema}.legate_meta`);
    expect(rows).toEqual([{ key: 'schema_version', value: '1' }]);
  });
});

describe('PostgresStateStore: claims from many connections at once', () => {
  it('exactly one wins per suspension, while the same suspension or its successor is saved at once', async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 3 }, () => postgresStore({ schema }));
    const effects: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(stores.length - 1), { minLength: 2, maxLength: 8 }),
        fc.constantFrom('none', 'same', 'successor'),
        fc.nat(stores.length - 1),
        async (claimers, resave, saver) => {
          const { suspension } = await treasurer(effects).run('Pay the supplier.');
          const s = suspension!;
          await stores[0]!.save(s);
          const successor = { ...s, id: `${s.id}-next` };
          const saving =
            resave === 'none'
              ? Promise.resolve('none')
              : stores[saver]!.save(resave === 'same' ? s : successor).then(
                  () => 'saved',
                  (error: unknown) => (error as { code: string }).code,
                );
          const claims = await Promise.all(
            claimers.map((at, i) => stores[at]!.claim(s.runId, s.id, claimFor(s.runId, s.id, `owner-${i}`))),
          );
          const saved = await saving;
          const wins = claims.filter(Boolean).length;
          const claim = await stores[0]!.claimOf(s.id);
          if (resave === 'successor') {
            // The successor is saved whenever it lands; the claims of the old one win once at most, and only before it.
            expect(saved).toBe('saved');
            expect(wins).toBeLessThanOrEqual(1);
            expect((await stores[0]!.load(s.runId))?.id).toBe(successor.id);
            expect(await stores[0]!.list()).toContain(s.runId);
          } else {
            // The same suspension saved again lands before the winning claim, or is refused after it.
            expect(wins).toBe(1);
            expect(['none', 'saved', 'already_claimed']).toContain(saved);
            expect(await stores[0]!.list()).not.toContain(s.runId);
            await expect(stores[saver]!.save(s)).rejects.toMatchObject({ code: 'already_claimed' });
          }
          expect(claim === undefined ? 0 : 1).toBe(wins);
          if (claim !== undefined) expect(claim.owner).toBe(`owner-${claims.indexOf(true)}`);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('PostgresStateStore: a save while a claim of the same suspension commits', () => {
  it('waits for the claim and is refused already_claimed, never saved over a spent suspension', async () => {
    const store = postgresStore();
    const { suspension } = await treasurer([]).run('Pay the supplier.');
    const s = suspension!;
    await store.save(s);
    // A claim mid-transaction on another connection: the run's row locked, the claim inserted, not committed.
    const claimer = await admin.connect();
    await claimer.query('BEGIN');
    await claimer.query(`SELECT 1 FROM ${store.schema}.legate_suspensions WHERE run_id = $1 FOR UPDATE`, [s.runId]);
    await claimer.query(`INSERT INTO ${store.schema}.legate_claims VALUES ($1, $2, 'other', 'claimed', $3, now())`, [
      s.id,
      s.runId,
      JSON.stringify(claimFor(s.runId, s.id, 'other')),
    ]);
    const saving = store.save(s).then(
      () => 'saved',
      (error: unknown) => (error as { code: string }).code,
    );
    await waitingOn(store.schema, 'legate_suspensions');
    await claimer.query('COMMIT');
    claimer.release();
    expect(await saving).toBe('already_claimed');
  });
});

describe('PostgresStateStore: the connection of a save is dropped inside its transaction', () => {
  it('rejects store_unavailable, leaves the stored suspension as it was, and the store goes on working', async () => {
    const store = postgresStore();
    const { suspension } = await treasurer([]).run('Pay the supplier.');
    const s = suspension!;
    await store.save(s);
    const holder = await admin.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${store.schema}.legate_suspensions WHERE run_id = $1 FOR UPDATE`, [s.runId]);
    const successor = { ...s, id: `${s.id}-next` };
    const saving = store.save(successor).then(
      () => 'saved',
      (error: unknown) => error,
    );
    await admin.query('SELECT pg_terminate_backend($1)', [await waitingOn(store.schema, 'legate_suspensions')]);
    const outcome = await saving;
    await holder.query('ROLLBACK');
    holder.release();
    expect(outcome).toBeInstanceOf(StoreError);
    expect(outcome).toMatchObject({ code: 'store_unavailable' });
    expect((outcome as Error).message).toMatch(new RegExp(`^Saving suspension ${successor.id} of run ${s.runId} did`));
    expect((await store.load(s.runId))?.id).toBe(s.id);
    await store.save(successor);
    expect((await store.load(s.runId))?.id).toBe(successor.id);
  });
});

describe('PostgresStateStore: the connection of a claim is dropped while it waits on a lock', () => {
  it.each([
    ['the lock holder gives up: a later claim from a fresh connection wins, and the effect happens once', false],
    ['the lock holder claims: the later claim is refused already_resumed, and no effect happens again', true],
  ])('%s', async (_label, holderClaims) => {
    const store = postgresStore();
    const effects: string[] = [];
    const { suspension } = await treasurer(effects).run('Pay the supplier.');
    await store.save(suspension!);

    // Another connection holds the run's row, as a concurrent claim does mid-transaction.
    const holder = await admin.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${store.schema}.legate_suspensions WHERE run_id = $1 FOR UPDATE`, [
      suspension!.runId,
    ]);
    const claiming = store
      .claim(suspension!.runId, suspension!.id, claimFor(suspension!.runId, suspension!.id, 'doomed'))
      .then(
        (won) => ({ won }),
        (error: unknown) => ({ error }),
      );
    const pid = await waitingOn(store.schema, 'legate_claims');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const outcome = await claiming;
    if (holderClaims) {
      await holder.query(`INSERT INTO ${store.schema}.legate_claims VALUES ($1, $2, 'holder', 'claimed', $3, now())`, [
        suspension!.id,
        suspension!.runId,
        JSON.stringify(claimFor(suspension!.runId, suspension!.id, 'holder')),
      ]);
    }
    await holder.query(holderClaims ? 'COMMIT' : 'ROLLBACK');
    holder.release();

    // Its connection died before the claim committed: the claim rejects, clearly, and records nothing.
    expect(outcome).toMatchObject({ error: expect.any(StoreError) });
    const error = (outcome as { error: StoreError }).error;
    expect(error.code).toBe('store_unavailable');
    expect(error.message).toMatch(new RegExp(`^Claiming suspension ${suspension!.id} of run ${suspension!.runId} did`));
    expect(error.message).toContain(
      'may or may not have taken effect: claimOf (or load) on a working connection tells',
    );
    expect((await store.claimOf(suspension!.id))?.owner).toBe(holderClaims ? 'holder' : undefined);

    // The same store (its pool dropped the dead connection) and a fresh one see the one truth.
    const fresh = postgresStore({ schema: store.schema });
    const resumed = await treasurer(effects, [reply.text('Done.')])
      .resume((await fresh.load(suspension!.runId))!, { approve: true, store: fresh })
      .then(
        (result) => result.stopReason,
        (refused: unknown) => (refused as { code: string }).code,
      );
    expect(resumed).toBe(holderClaims ? 'already_resumed' : 'end_turn');
    expect(effects).toEqual(holderClaims ? [] : ['wired 250']);
    expect(await store.claim(suspension!.runId, suspension!.id, claimFor(suspension!.runId, suspension!.id, 'x'))).toBe(
      false,
    );
  });
});
