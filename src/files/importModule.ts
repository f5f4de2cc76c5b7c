import { pathToFileURL } from 'node:url';

/**
 * Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is.
 * Where legate itself runs from TypeScript source (under vitest or a tsx loader), that runtime
 * already reads TypeScript: the module is imported as legate's own are, sharing their copies.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  const runsTypeScript = import.meta.url.endsWith('.ts');
  if (!/\.[mc]?ts$/.test(file) || runsTypeScript) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}
