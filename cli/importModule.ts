import { pathToFileURL } from 'node:url';
import { MissingPeerDependencyError } from '../src/index.js';

/** Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is. */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (/\.[mc]?ts$/.test(file)) {
    const { tsImport } = await importTsx(file);
    return (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
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
