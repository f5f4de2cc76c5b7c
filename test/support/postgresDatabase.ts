// The suite's PostgreSQL server (started by test/support/postgresServer.ts) for a test file: waits
// until it accepts connections, gives each store a schema of its own (test files run side by side on
// one server), and closes the stores a test opened.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, inject } from 'vitest';
import { PostgresStateStore, type PostgresStoreOptions } from '../../src/store/postgres.js';
import { setupReady } from './statusFile.js';

/** Resolves once the suite's server is up; rejects with the reason (and the server's log) if it did not start. */
export async function postgresReady(): Promise<string> {
  await setupReady(inject('postgresStatus'), 'ready');
  return inject('postgresUrl');
}

/** A PostgreSQL schema name no other test uses. */
export const freshSchema = (): string => `t_${randomBytes(12).toString('hex')}`;

/** Opens stores on the suite's server, each in a fresh schema unless one is given, closed after each test. */
export function usePostgresStores(): (options?: PostgresStoreOptions) => PostgresStateStore {
  const open: PostgresStateStore[] = [];
  beforeAll(postgresReady);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  return (options = {}) => {
    const store = new PostgresStateStore(inject('postgresUrl'), { schema: freshSchema(), ...options });
    open.push(store);
    return store;
  };
}
