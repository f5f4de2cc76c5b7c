import { pathToFileURL } from 'node:url';
import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';

/**
 * Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is.
 * Where legate itself runs from TypeScript source (under vitest or a tsx loader), that runtime
 * already reads TypeScript: the module is imported as legate's own are, sharing their copies.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  const runsTypeScript = import.meta.url.endsWith('.ts');
  if (!/\.[mc]?ts$/.test(file) || runsTypeScript) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await importTsx(file);
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
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
