import { pathToFileURL } from 'node:url';

/**
 * Imports a module the user wrote: TypeScript through tsx (no build step), JavaScript as it is.
 * Under vitest, which compiles TypeScript itself, the module is imported as the test's own
 * modules are, so both share one copy of what they import.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  const typescript = /\.[mc]?ts$/.test(file);
  if (!typescript || process.env.VITEST !== undefined) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}
