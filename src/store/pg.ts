import { createRequire } from 'node:module';
import type Pg from 'pg';
import { MissingPeerDependencyError, type OptionalPeer } from '../errors/MissingPeerDependencyError.js';

/** The PostgreSQL client: only those who keep suspensions in PostgreSQL install it. */
export const PG: OptionalPeer = {
  name: 'pg',
  neededBy: 'legate/postgres',
  install: 'npm install pg',
};

/**
 * The `pg` client, loaded when legate/postgres is imported. A static `import` of a missing package
 * fails before any of our code runs, with Node's own words; `require` lets us say what to do.
 */
export function loadPg(require: (id: string) => unknown = createRequire(import.meta.url)): typeof Pg {
  try {
    return require(PG.name) as typeof Pg;
  } catch (error) {
    throw MissingPeerDependencyError.orCause(error, PG);
  }
}
