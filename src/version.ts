import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './files/packageRoot.js';

let cached: string | undefined;

/** legate's own version: from its package.json, from source or from dist. */
export function legateVersion(): string {
  if (cached !== undefined) return cached;
  const root = packageRoot();
  cached =
    root === null
      ? 'unknown'
      : (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
