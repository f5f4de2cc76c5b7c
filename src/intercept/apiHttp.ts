import type { IncomingMessage } from 'node:http';
import type { MessagesRequest } from '../messages/types.js';

// What legate's two localhost endpoints (the recording proxy, the stand-in) speak of the Messages API's HTTP
// beyond its bodies: Claude Code's connectivity probe, errors in the API's shape, a request's body read whole.

/** Claude Code's connectivity probe (`HEAD /api/hello`): answered 200, never recorded nor served from a file. */
export const PROBE_PATH = '/api/hello';

export function isProbe(method: string | undefined, pathname: string): boolean {
  return pathname === PROBE_PATH && (method === 'HEAD' || method === 'GET');
}

/**
 * An error as the API words one, with `x-should-retry: false`: the request was understood, and retrying it
 * cannot help, so the client (the SDKs, Claude Code) fails at once with the message.
 */
export function apiError(status: number, type: string, message: string) {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
    body: JSON.stringify({ type: 'error', error: { type, message } }),
  };
}

/** The same error as a fetch Response. */
export function apiErrorResponse(status: number, type: string, message: string): Response {
  const { body, headers } = apiError(status, type, message);
  return new Response(body, { status, headers });
}

/** A request's body, read whole. */
export async function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A request's body as a Messages API request; undefined when it is not JSON (nothing recorded can answer it). The
 * body is read: a request that is sent on afterwards is given as a clone, made only there (a clone tees the body).
 */
export async function jsonBody(request: Request): Promise<MessagesRequest | undefined> {
  try {
    return (await request.json()) as MessagesRequest;
  } catch {
    return undefined;
  }
}
