import { pathToFileURL } from 'node:url';

/**
 * Imports a module the user wrote. TypeScript is imported as it is where the runtime already
 * reads it (vitest, a tsx loader), else through tsx, so no build step is needed.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (!/\.[mc]?ts$/.test(file)) return (await import(url)) as Record<string, unknown>;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  }
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}
