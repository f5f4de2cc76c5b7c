import { pathToFileURL } from 'node:url';

/** Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is. */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (/\.[mc]?ts$/.test(file)) {
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}
