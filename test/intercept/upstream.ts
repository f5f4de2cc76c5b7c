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

/** Which response answers a request: by its body, or (a list) the nth response for the nth request. */
export type Answers = readonly CapturedResponse[] | ((body: unknown) => CapturedResponse | undefined);

/**
 * A local stand-in for the API, on 127.0.0.1: answers each POST /v1/messages as `answers` says (the
 * nth response given for the nth request, or the one a function of the body picks), and keeps what
 * each request carried (headers and body).
 */
export async function startUpstream(answers: Answers) {
  const seen: { url: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
  const server = createServer((request, reply) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      const response = typeof answers === 'function' ? answers(body) : answers[seen.length - 1];
      // The path, whatever the query (Claude Code and the SDK's beta messages add `?beta=true`).
      if (new URL(request.url ?? '', 'http://upstream').pathname !== '/v1/messages' || response === undefined) {
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
