// legate/postgres: suspensions in PostgreSQL, shared across processes and machines. Needs the optional peer pg
// (npm install pg); importing this entry without it throws MissingPeerDependencyError (code missing_peer_dependency).
export {
  PostgresStateStore,
  type PostgresConnection,
  type PostgresStoreOptions,
} from './PostgresStateStore.js';
