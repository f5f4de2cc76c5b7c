import { optionalPeerImport } from '../files/optionalPeerImport.js';
import { UsageError } from '../errors/UsageError.js';
import { releaseResponseCopies } from './releaseResponseCopies.js';

const MSW = { name: 'msw', neededBy: 'legate/intercept', install: 'npm install --save-dev msw@^2.15.0' };

type MswModules = Awaited<ReturnType<typeof importMsw>>;
type Msw = MswModules['msw'];
type Handler = ReturnType<Msw['http']['post']>;
type Server = ReturnType<MswModules['node']['setupServer']>;

/**
 * msw's modules, imported by the first interception and kept: importing a module already loaded
 * still resolves it again each time (measured: about 1 ms a module under tsx, 0.04 ms under plain Node).
 */
export const loadMsw: () => Promise<MswModules> = optionalPeerImport(importMsw, MSW);

async function importMsw() {
  return { msw: await import('msw'), node: await import('msw/node') };
}

/** The interception started ahead of any recording (startInterception), if one was. */
let early: Server | undefined;
/** The file of the interception in force, if one is. */
let active: string | undefined;

/**
 * Starts intercepting now, ahead of the interceptions to come, and keeps intercepting (every request
 * passing through untouched) until stopInterception: for a test setup file. A client takes `fetch`
 * when it is made (`new Anthropic()` does), so a client made before any interception started is not
 * intercepted; starting here, before the code under test is imported, covers clients made at import time.
 */
export async function startInterception(): Promise<void> {
  if (early !== undefined) return;
  const { node } = await loadMsw();
  const server = node.setupServer();
  releaseResponseCopies(server);
  server.listen({ onUnhandledRequest: 'bypass' });
  early = server;
}

/** Stops what startInterception started. */
export function stopInterception(): void {
  early?.close();
  early = undefined;
}

/**
 * Puts one interception's handlers in force: on the server startInterception started, else on a
 * server of its own. Requests no handler answers pass through, unless `refuseOthers`: then they fail
 * as a network error would, and each is named on stderr. One interception at a time.
 */
export async function interceptWith(
  file: string,
  handlersOf: (msw: Msw) => Handler[],
  refuseOthers: boolean,
): Promise<{ close(): void }> {
  const { msw, node } = await loadMsw();
  if (active !== undefined)
    throw new UsageError(
      'interception_active',
      `An interception of ${active} is still in force: close it (await interception.close()) before intercepting ` +
        `for ${file}. Requests cannot be told apart between two interceptions at once.`,
    );
  const handlers = withoutStackTraces(() => {
    const made = handlersOf(msw);
    if (refuseOthers)
      made.push(
        msw.http.all('*', ({ request }) => {
          console.error(
            `legate/intercept: refused ${request.method} ${request.url}: a replay lets no other request reach the ` +
              "network (interceptAnthropic's otherHosts: 'pass' lets them through).",
          );
          return Response.error();
        }),
      );
    return made;
  });
  let release: () => void;
  if (early !== undefined) {
    const server = early;
    server.use(...handlers);
    release = () => server.resetHandlers();
  } else {
    const server = node.setupServer(...handlers);
    releaseResponseCopies(server);
    server.listen({ onUnhandledRequest: 'bypass' });
    release = () => server.close();
  }
  active = file;
  return {
    close: () => {
      if (active !== file) return;
      active = undefined;
      release();
    },
  };
}

/**
 * What `make` returns, made with stack traces off. msw takes a stack trace for each handler made, to name the line
 * that declared it (`info.callFrame`, for its browser console; nothing in Node prints it, and for these handlers it
 * would name legate's own code). Under source maps (tsx, vitest) one costs about 0.1 ms, as much as reading a small
 * trajectory file; an interception makes three. Left on where the limit cannot be changed.
 */
function withoutStackTraces<T>(make: () => T): T {
  const limit = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit');
  if (limit?.writable !== true) return make();
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit.value as number;
  }
}
