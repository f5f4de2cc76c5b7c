import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * An msw server for one test file, standing in for the API: listening from the file's first test
 * to its last, its handlers reset after each test, and any request no handler answers refused
 * (a test never reaches the network by mistake).
 */
export function useMockServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
