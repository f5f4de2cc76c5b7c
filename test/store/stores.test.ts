import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStateStore, MemoryStateStore, StoreError, reply, type StateStore } from '../../src/index.js';
import { SqliteStateStore } from '../../src/store/sqlite.js';
import { useTempDir } from '../support/tempDir.js';
import { usePostgresStores } from '../support/postgresDatabase.js';

import { aSuspension, claimFor, payer } from '../support/suspendedPayment.js';

const tempDir = useTempDir();
const postgresStore = usePostgresStores();

const stores: [string, () => StateStore][] = [
  ['MemoryStateStore', () => new MemoryStateStore()],
  ['FileStateStore', () => new FileStateStore(join(tempDir(), 'runs'))],
  ['SqliteStateStore', () => new SqliteStateStore(join(tempDir(), 'runs.db'))],
  ['PostgresStateStore', () => postgresStore()],
];

describe.each(stores)('%s', (_name, create) => {
  it('saves, loads, lists and deletes suspensions by run id', async () => {
    const store = create();
    const suspension = await aSuspension();
    await store.save(suspension);
    expect(await store.load(suspension.runId)).toEqual(suspension);
    expect(await store.list()).toEqual([suspension.runId]);
    await store.delete(suspension.runId);
    expect(await store.load(suspension.runId)).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('lets exactly one claim win, and only for the suspension it holds', async () => {
    const store = create();
    const suspension = await aSuspension();
    await store.save(suspension);
    expect(await store.claim(suspension.runId, 'another-suspension', claimFor(suspension))).toBe(false);
    const claims = await Promise.all([
      store.claim(suspension.runId, suspension.id, claimFor(suspension)),
      store.claim(suspension.runId, suspension.id, claimFor(suspension)),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.claim(suspension.runId, suspension.id, claimFor(suspension))).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('records a call that a recovery found of unknown outcome as unknown, on the finished claim', async () => {
    const store = create();
    const suspension = await aSuspension();
    const callId = suspension.pending[0]!.id;
    await store.save(suspension);
    // A resume whose process stopped inside the approved call: started, never finished.
    await store.claim(suspension.runId, suspension.id, {
      ...claimFor(suspension),
      decisions: { [callId]: { approve: true } },
      calls: { [callId]: { state: 'started' } },
    });
    expect(await store.list({ status: 'claimed' })).toEqual([suspension.runId]);
    const paid: string[] = [];
    const result = await payer(paid, [reply.text('Checked.')]).recover(suspension, {
      store,
      staleAfterMs: 0,
      owner: 'rescuer',
    });
    expect(paid).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'error', error: { errorClass: 'OutcomeUnknownError' } });
    expect(await store.claimOf(suspension.id)).toMatchObject({
      owner: 'rescuer',
      status: 'finished',
      calls: { [callId]: { state: 'unknown' } },
    });
    expect(await store.list({ status: 'claimed' })).toEqual([]);
  });
});

describe('store schema versions', () => {
  it('refuses a record written with another schema version, saying which it reads', async () => {
    const file = join(tempDir(), 'runs.db');
    const store = new SqliteStateStore(file);
    const suspension = await aSuspension();
    await store.save(suspension);
    store.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(file);
    db.prepare('UPDATE legate_suspensions SET schema_version = 2').run();
    db.close();
    const reopened = new SqliteStateStore(file);
    await expect(reopened.load(suspension.runId)).rejects.toThrow(StoreError);
    await expect(reopened.load(suspension.runId)).rejects.toThrow('this legate reads version 1');
    reopened.close();
  });
});
