import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether legate runs from its TypeScript source (under vitest or a tsx loader) rather than from its build. Said
 * here, once: in the build a module's own `import.meta.url` is the bundled file that holds it (dist/chunks/...), not
 * its source's place, so a file legate finds by its path is found from {@link packageRoot}, not next to a module.
 */
export const runsFromSource = import.meta.url.endsWith('.ts');

let cached: string | null | undefined;

/** The folder of legate's package.json, the nearest above this module (src/files/ or dist/chunks/); null if none. */
export function packageRoot(): string | null {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) {
      cached = null;
      return cached;
    }
    dir = parent;
  }
  cached = dir;
  return cached;
}
