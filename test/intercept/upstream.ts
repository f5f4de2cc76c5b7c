import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A captured exchange's response (test/fixtures/api-captures): a JSON body or a raw event stream. */
export type CapturedResponse = { status: number; body: unknown } | { status: number; sse: string };

export function capturedResponse(name: string): CapturedResponse {
  const capture = JSON.parse(readFileSync(`test/fixtures/api-captures/${name}`, 'utf8')) as {
    response: CapturedResponse;
  };
  return capture.response;
}

/**
 * A local stand-in for the API, on 127.0.0.1: answers the nth POST /v1/messages with the nth
 * response given, and keeps what each request carried (headers and body).
 */
export async function startUpstream(responses: readonly CapturedResponse[]) {
  const seen: { headers: IncomingHttpHeaders; body: unknown }[] = [];
  const server = createServer((request, reply) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const response = responses[seen.length - 1];
      if (request.url !== '/v1/messages' || response === undefined) {
        reply.writeHead(500, { 'content-type': 'application/json' });
        reply.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'no response scripted' } }));
        return;
      }
      if ('sse' in response) {
        reply.writeHead(response.status, { 'content-type': 'text/event-stream' });
        reply.end(response.sse);
      } else {
        reply.writeHead(response.status, { 'content-type': 'application/json' });
        reply.end(JSON.stringify(response.body));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
