import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CapturedResponse } from './upstream.js';

/**
 * One scripted answer: a captured response, with any headers the capture did not keep; or `stall`,
 * a request never answered (the API is slow), which ends only when the client gives up on it.
 */
export type Scripted = { response: CapturedResponse; headers?: OutgoingHttpHeaders } | 'stall';

/** What the stand-in saw of one request: its path, and how it ended (the client may hang up before the answer). */
export interface SeenRequest {
  url: string;
  ended: Promise<'answered' | 'abandoned'>;
}

/**
 * A local stand-in for the API, on 127.0.0.1, for failures (test/intercept/upstream.ts serves the
 * successes): answers the nth request, whatever its path, with the nth scripted answer, and an
 * unscripted one with a 500 the client does not retry.
 */
export async function startScripted(answers: readonly Scripted[]) {
  const seen: SeenRequest[] = [];
  const arrivals: ((request: SeenRequest) => void)[] = [];
  const server = createServer((request, reply) => {
    const ended = new Promise<'answered' | 'abandoned'>((resolve) =>
      reply.on('close', () => resolve(reply.writableFinished ? 'answered' : 'abandoned')),
    );
    const entry: SeenRequest = { url: request.url ?? '', ended };
    seen.push(entry);
    arrivals[seen.length - 1]?.(entry);
    const answer = answers[seen.length - 1];
    request.resume();
    request.on('end', () => {
      if (answer === 'stall') return;
      if (answer === undefined) {
        reply.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        reply.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'no answer scripted' } }));
        return;
      }
      const { response, headers = {} } = answer;
      const sse = 'sse' in response;
      reply.writeHead(response.status, { 'content-type': sse ? 'text/event-stream' : 'application/json', ...headers });
      reply.end(sse ? response.sse : JSON.stringify(response.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** The nth request (from 0), once it has arrived. */
    arrival: (n: number) =>
      seen[n] === undefined ? new Promise<SeenRequest>((resolve) => (arrivals[n] = resolve)) : Promise.resolve(seen[n]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
