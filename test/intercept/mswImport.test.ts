import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * interceptAnthropic imports msw once and keeps it; an import that failed must not be kept, or
 * installing msw would not help until the process restarts. A module instance of its own (the query
 * in the import) makes the first import in this file the module's first, whatever ran before in the worker.
 */
afterEach(() => {
  vi.doUnmock('msw');
});

describe('interceptAnthropic loading msw', () => {
  it('keeps no failed import: once msw can be imported, the next interception loads it', async () => {
    vi.doMock('msw', () => {
      throw Object.assign(new Error("Cannot find package 'msw' imported from /app/index.js"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    });
    const { loadMsw } = (await import(
      // @ts-expect-error: a query makes a module instance of its own; TypeScript has no type for such a path
      '../../src/intercept/interceptionServer.js?own-instance'
    )) as typeof import('../../src/intercept/interceptionServer.js');
    // vitest wraps what the mock threw; the packed-install test checks the MissingPeerDependencyError itself.
    await expect(loadMsw()).rejects.toMatchObject({ cause: { code: 'ERR_MODULE_NOT_FOUND' } });
    vi.doUnmock('msw');
    // msw loads now.
    await expect(loadMsw()).resolves.toMatchObject({ node: { setupServer: expect.any(Function) } });
  });
});
