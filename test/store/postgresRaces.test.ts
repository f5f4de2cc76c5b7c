import { setTimeout as pause } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, StoreError, defineTool, reply, type ClaimRecord } from '../../src/index.js';
import { freshSchema, postgresReady, usePostgresStores } from '../support/postgresDatabase.js';

const postgresStore = usePostgresStores();
let admin: pg.Pool;
beforeAll(async () => {
  admin = new pg.Pool({ connectionString: await postgresReady() });
});
afterAll(() => admin.end());

function treasurer(effects: string[], script = [reply.toolUse('wire', { amount: 250 })]) {
  const wire = defineTool({
    name: 'wire',
    description: 'Wires money.',
    privileged: true,
    input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    run: ({ amount }) => {
      effects.push(`wired ${amount}`);
      return 'Wired.';
    },
  });
  return new Agent({
    name: 'treasurer',
    model: 'm',
    tools: [wire],
    transport: new ScriptedTransport(script),
    approvalRequired: (tool) => tool.privileged,
  });
}

const claimFor = (runId: string, suspensionId: string, owner: string): ClaimRecord => ({
  runId,
  suspensionId,
  owner,
  claimedAt: new Date().toISOString(),
  status: 'claimed',
  decisions: {},
  calls: {},
});

/** The backend of the store's claim, once it waits on a row lock another connection holds. */
async function waitingClaim(schema: string): Promise<number> {
  for (;;) {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
      [`%INSERT INTO "${schema}".legate_claims%`],
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
    const pid = await waitingClaim(store.schema);
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
