// The connection of a PostgresStateStore terminated (pg_terminate_backend) as it records an approved call's outcome,
// after the call's effect: the record is written again on a fresh connection, once; terminated there too, the resume
// fails clearly, and a recovery records the outcome as unknown.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError, reply, type ClaimRecord } from '../../src/index.js';
import { PostgresStateStore } from '../../src/store/postgres.js';
import { freshSchema, postgresReady, usePostgresStores } from '../support/postgresDatabase.js';
import { treasurer } from '../support/suspendedPayment.js';

const postgresStore = usePostgresStores();
let admin: pg.Pool;
beforeAll(async () => {
  admin = new pg.Pool({ connectionString: await postgresReady() });
});
afterAll(() => admin.end());

/**
 * The first `times` connections that record a call finished on a claim of `schema` are terminated as they do, with
 * `pg_terminate_backend` on their own backend's pid: the statement fails, uncommitted, on a connection that is gone,
 * as when a terminated connection is used for the record. Returns how many such records were attempted.
 */
async function terminateRecordsOfFinished(schema: string, times: number): Promise<() => Promise<number>> {
  await admin.query(
    `CREATE SEQUENCE ${schema}.finished_records;
     CREATE FUNCTION ${schema}.terminate_finished_record() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       -- A sequence is not rolled back with the statement, so it counts the attempts.
       IF nextval('${schema}.finished_records') <= ${times} THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
       RETURN NEW;
     END $$;
     CREATE TRIGGER terminate_finished_record BEFORE UPDATE ON ${schema}.legate_claims FOR EACH ROW
       WHEN (NEW.status = 'claimed' AND NEW.data LIKE '%"state":"finished"%')
       EXECUTE FUNCTION ${schema}.terminate_finished_record();`,
  );
  return async () => {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM ${schema}.finished_records`,
    );
    return Number(rows[0]!.n);
  };
}

describe('PostgresStateStore: the connection is terminated as an approved call’s outcome is recorded', () => {
  it('records the outcome finished on a fresh connection, and the run completes', async () => {
    const store = postgresStore();
    const effects: string[] = [];
    const agent = treasurer(effects, [reply.toolUse('wire', { amount: 250 }), reply.text('Done.')]);
    const { suspension } = await agent.run('Pay the supplier.');
    await store.save(suspension!);
    const attempts = await terminateRecordsOfFinished(store.schema, 1);

    const result = await agent.resume((await store.load(suspension!.runId))!, { approve: true, store });

    expect(result.stopReason).toBe('end_turn');
    expect(effects).toEqual(['wired 250']);
    expect(await attempts()).toBe(2); // terminated once, written on the second connection
    expect(await store.claimOf(suspension!.id)).toMatchObject({
      status: 'finished',
      calls: { [suspension!.pending[0]!.id]: { state: 'finished', call: { outcome: 'ok', output: 'Wired.' } } },
    });
    expect(await store.list({ status: 'claimed' })).toEqual([]);
  });

  it(
    'terminated on the fresh connection too: the resume fails store_unavailable after two attempts, and a ' +
      'recovery records the outcome unknown without running the call again',
    async () => {
      const store = postgresStore();
      const effects: string[] = [];
      const agent = treasurer(effects, [reply.toolUse('wire', { amount: 250 }), reply.text('Done.')]);
      const { suspension } = await agent.run('Pay the supplier.');
      await store.save(suspension!);
      const attempts = await terminateRecordsOfFinished(store.schema, 2);

      const error = await agent
        .resume((await store.load(suspension!.runId))!, { approve: true, store })
        .catch((e: unknown) => e);

      expect(effects).toEqual(['wired 250']);
      expect(await attempts()).toBe(2);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ code: 'store_unavailable' });
      const message = (error as Error).message;
      expect(message).toMatch(new RegExp(`^Updating the claim on suspension ${suspension!.id} \\(tried twice`));
      expect(message).toContain('terminating connection due to administrator command');
      expect(message).toContain('It may or may not have taken effect');
      const callId = suspension!.pending[0]!.id;
      expect(await store.claimOf(suspension!.id)).toMatchObject({
        status: 'claimed',
        calls: { [callId]: { state: 'started' } },
      });
      expect(await store.list({ status: 'claimed' })).toEqual([suspension!.runId]);

      const recovered = await treasurer(effects, [reply.text('Checking.')]).recover(suspension!, {
        store,
        staleAfterMs: 0,
      });
      expect(effects).toEqual(['wired 250']);
      expect(recovered.toolCalls[0]).toMatchObject({ outcome: 'error', error: { errorClass: 'OutcomeUnknownError' } });
      expect(await store.claimOf(suspension!.id)).toMatchObject({
        status: 'finished',
        calls: { [callId]: { state: 'unknown' } },
      });
    },
  );
});

/**
 * An application's pool through which the next claim update fails as `fault` says: its reply lost after it committed
 * (the connection terminated), or refused by the database without running.
 */
function faultyPool(real: pg.Pool) {
  const faults = { next: undefined as 'lost' | 'refused' | undefined, updates: 0 };
  const pool = {
    idleCount: 0,
    connect: () => real.connect(),
    query: async (text: string, values: unknown[]) => {
      const update = /^\s*UPDATE/.test(text);
      if (update) faults.updates += 1;
      const fault = update ? faults.next : undefined;
      faults.next = undefined;
      if (fault === 'refused')
        throw Object.assign(new Error('permission denied for table legate_claims'), { code: '42501' });
      const result = await real.query(text, values);
      if (fault === 'lost') throw new Error('Connection terminated unexpectedly');
      return result;
    },
  } as unknown as pg.Pool;
  return { pool, faults };
}

describe('PostgresStateStore: an update of a claim whose connection fails', () => {
  let real: pg.Pool;
  beforeAll(async () => {
    real = new pg.Pool({ connectionString: await postgresReady() });
    real.on('error', () => undefined);
  });
  afterAll(() => real.end());

  async function claimed() {
    const { pool, faults } = faultyPool(real);
    const store = new PostgresStateStore(pool, { schema: freshSchema() });
    const { suspension } = await treasurer([], [reply.toolUse('wire', { amount: 250 })]).run('Pay the supplier.');
    const s = suspension!;
    await store.save(s);
    const claim: ClaimRecord = {
      runId: s.runId,
      suspensionId: s.id,
      owner: 'dead-worker',
      claimedAt: new Date(0).toISOString(),
      status: 'claimed',
      decisions: {},
      calls: {},
    };
    expect(await store.claim(s.runId, s.id, claim)).toBe(true);
    return { store, faults, id: s.id, claim };
  }

  it(
    'after it committed is tried again, and a takeover that did commit is reported as taken, not as lost to ' +
      'another',
    async () => {
      const { store, faults, id, claim } = await claimed();
      // Progress under the same owner: the second attempt matches again and writes the same record.
      faults.next = 'lost';
      const progress = { ...claim, calls: { a: { state: 'started' as const } } };
      expect(await store.updateClaim(id, 'dead-worker', progress)).toBe(true);
      expect(faults.updates).toBe(2);
      expect(await store.claimOf(id)).toEqual(progress);

      // A takeover: the first attempt moved the claim to the rescuer, so the second no longer matches the old owner.
      faults.next = 'lost';
      const taken = { ...progress, owner: 'rescuer', claimedAt: new Date(1000).toISOString() };
      expect(await store.updateClaim(id, 'dead-worker', taken)).toBe(true);
      expect(faults.updates).toBe(4);
      expect(await store.claimOf(id)).toEqual(taken);

      // Another's takeover since is not mistaken for this one.
      const other = { ...taken, owner: 'another', claimedAt: new Date(2000).toISOString() };
      expect(await store.updateClaim(id, 'rescuer', other)).toBe(true);
      faults.next = 'lost';
      expect(await store.updateClaim(id, 'rescuer', { ...taken, claimedAt: new Date(3000).toISOString() })).toBe(false);
    },
  );

  it('is not tried again when the database refuses it (not a lost connection): its error is passed on', async () => {
    const { store, faults, id, claim } = await claimed();
    faults.next = 'refused';
    const error = await store.updateClaim(id, 'dead-worker', { ...claim, status: 'finished' }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table legate_claims' });
    expect(faults.updates).toBe(1);
    expect(await store.claimOf(id)).toEqual(claim);
  });
});
