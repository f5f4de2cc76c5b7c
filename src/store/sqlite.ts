// legate/sqlite: suspensions in a SQLite file. Needs the optional peer better-sqlite3 (npm install better-sqlite3);
// importing this entry without it throws MissingPeerDependencyError (code missing_peer_dependency).
export { SqliteStateStore } from './SqliteStateStore.js';
