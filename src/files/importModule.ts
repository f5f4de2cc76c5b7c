import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';
import { ModuleImportError } from './ModuleImportError.js';
import { runsFromSource } from './packageRoot.js';

/**
 * Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is.
 * Where legate itself runs from TypeScript source (under vitest or a tsx loader), that runtime
 * already reads TypeScript: the module is imported as legate's own are, sharing their copies.
 * Throws {@link ModuleImportError} when the file is not there or importing it fails.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (!existsSync(file)) throw ModuleImportError.notFound(file);
  const url = pathToFileURL(file).href;
  const typeScript = /\.[mc]?ts$/.test(file) && !runsFromSource;
  // tsx missing is said as itself (how to install it); anything the module does wrong, as the module's fault.
  const load = !typeScript
    ? (specifier: string) => import(specifier)
    : wholeThread
      ? await registerTsx(file)
      : (await importTsx(file)).tsImport;
  try {
    return (await load(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw ModuleImportError.failed(file, error);
  }
}

/** Whether this thread may read TypeScript through tsx for good (see registerTypeScriptForThread). */
let wholeThread = false;
let registered: Promise<(specifier: string) => Promise<unknown>> | undefined;

/**
 * Lets {@link importModule} register tsx for this whole thread, once, instead of importing each TypeScript module in
 * a namespace of its own. A namespace keeps the caller's process as it was, but loads a second copy of everything the
 * module imports (legate, zod, the SDK) through the loader: seconds per thread. For threads legate owns: the
 * `legate` command and its replay workers.
 */
export function registerTypeScriptForThread(): void {
  wholeThread = true;
}

/** tsx registered for ES modules and CommonJS (a config outside an ES-module package is one), as `--import tsx`. */
function registerTsx(file: string): Promise<(specifier: string) => Promise<unknown>> {
  registered ??= (async () => {
    const esm = await importTsx(file);
    const cjs = (await import('tsx/cjs/api')) as { register: () => unknown };
    esm.register();
    cjs.register();
    return (specifier: string) => import(specifier);
  })();
  // A failure (tsx missing) is said each time, not remembered.
  registered.catch(() => {
    registered = undefined;
  });
  return registered;
}

/** tsx is an optional peer: only a TypeScript config or fuzz file needs it, and then we say how to get it. */
async function importTsx(file: string): Promise<typeof import('tsx/esm/api')> {
  try {
    return await import('tsx/esm/api');
  } catch (error) {
    const javascript = file.replace(/\.[mc]?ts$/, '.mjs');
    const tsx = {
      name: 'tsx',
      neededBy: `Loading ${file} (TypeScript)`,
      install: 'npm install --save-dev tsx',
      otherwise: `or write it as JavaScript: ${javascript}`,
    };
    throw MissingPeerDependencyError.orCause(error, tsx);
  }
}
