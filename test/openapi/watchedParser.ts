import { afterAll, beforeAll, beforeEach, vi } from 'vitest';

type OpenApiEntry = typeof import('../../src/openapi/index.js');

/** What the watched parser was asked to read: copies of the documents, as given. */
export interface Watched {
  /** legate/openapi, imported with the watched parser (in beforeAll). */
  entry(): OpenApiEntry;
  readonly dereferenced: Record<string, unknown>[];
  readonly validated: Record<string, unknown>[];
}

/**
 * legate/openapi with the OpenAPI parser watched: every document the parser is asked to dereference or validate
 * is kept (a copy, as given), so a test can bound the work its validation had. The suite shares modules between files
 * (`isolate: false`), and legate keeps the parser once loaded: the entry is imported afresh for the file with
 * the watched parser, and afterwards the modules are reset again, so no other file sees the watch.
 */
export function useWatchedParser(): Watched {
  const dereferenced: Record<string, unknown>[] = [];
  const validated: Record<string, unknown>[] = [];
  let entry: OpenApiEntry | undefined;
  beforeAll(async () => {
    vi.doMock('@readme/openapi-parser', async (importOriginal) => {
      const parser = await importOriginal<typeof import('@readme/openapi-parser')>();
      return {
        ...parser,
        dereference: (api: Record<string, unknown>, options: never) => {
          dereferenced.push(structuredClone(api));
          return parser.dereference(api as never, options);
        },
        validate: (api: Record<string, unknown>, options: never) => {
          validated.push(structuredClone(api));
          return parser.validate(api as never, options);
        },
      };
    });
    vi.resetModules();
    entry = await import('../../src/openapi/index.js');
  });
  beforeEach(() => {
    dereferenced.length = 0;
    validated.length = 0;
  });
  afterAll(() => {
    vi.doUnmock('@readme/openapi-parser');
    vi.resetModules();
  });
  return {
    entry: () => {
      if (entry === undefined)
        throw new Error('useWatchedParser: the entry is imported in beforeAll; use it in a test');
      return entry;
    },
    dereferenced,
    validated,
  };
}
