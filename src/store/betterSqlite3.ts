import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { MissingPeerDependencyError, type OptionalPeer } from '../errors/MissingPeerDependencyError.js';

/** better-sqlite3 compiles native code where no prebuilt binary fits: only SQLite users install it. */
export const BETTER_SQLITE3: OptionalPeer = {
  name: 'better-sqlite3',
  neededBy: 'legate/sqlite',
  install: 'npm install better-sqlite3',
};

/**
 * The better-sqlite3 driver, loaded when legate/sqlite is imported. A static `import` of a missing
 * package fails before any of our code runs, with Node's own words; `require` lets us say what to do.
 */
export function loadBetterSqlite3(
  require: (id: string) => unknown = createRequire(import.meta.url),
): typeof BetterSqlite3 {
  try {
    return require(BETTER_SQLITE3.name) as typeof BetterSqlite3;
  } catch (error) {
    throw MissingPeerDependencyError.orCause(error, BETTER_SQLITE3);
  }
}
