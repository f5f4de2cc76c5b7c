import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` library, loaded the first time it is needed and kept: to write a trajectory, to read one the writer's
 * reader declines (and say where its fault is), or to say where in a file a secret was found. Importing legate, and
 * replaying the files it wrote, never needs it. It is required: its Node build is CommonJS, the very module an
 * `import 'yaml'` gets.
 */
export function yamlLibrary(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
