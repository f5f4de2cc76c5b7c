import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';
import { ModuleImportError } from './ModuleImportError.js';

/**
 * Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is.
 * Where legate itself runs from TypeScript source (under vitest or a tsx loader), that runtime
 * already reads TypeScript: the module is imported as legate's own are, sharing their copies.
 * Throws {@link ModuleImportError} when the file is not there or importing it fails.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (!existsSync(file)) throw ModuleImportError.notFound(file);
  const url = pathToFileURL(file).href;
  const runsTypeScript = import.meta.url.endsWith('.ts');
  const typeScript = /\.[mc]?ts$/.test(file) && !runsTypeScript;
  // tsx missing is said as itself (how to install it); anything the module does wrong, as the module's fault.
  const load = typeScript ? (await importTsx(file)).tsImport : (specifier: string) => import(specifier);
  try {
    return (await load(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw ModuleImportError.failed(file, error);
  }
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
