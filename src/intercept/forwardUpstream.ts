import { parseSse } from './exchange.js';

/** Where a forwarded request goes: the request to fetch in its place (the API's URL past msw, the proxy's upstream). */
export type Upstream = (request: Request) => Request;

/** What forwarding a request gave: the response to hand to the client, and its body text when it came. */
interface Forwarded {
  response: Response;
  /**
   * Whether the API answered with a success (a 2xx, and for a stream no `error` event in place of its
   * end), the content type and the whole body, when the API answered at all.
   */
  received?: { ok: boolean; contentType: string; text: string };
}

/**
 * Sends an intercepted request on to the API, past the interception (`bypass`), and builds the
 * response handed back to the client: the same status and headers, the body whole and decoded.
 * A request that got no response (refused, reset) gives the client a network error, as it would have.
 * The client's abort (its timeout, its AbortSignal) travels with the request and cancels the upstream
 * call; an answer that came in whole just as the client gave up is not kept, since it never sees it.
 */
export async function forwardUpstream(request: Request, bypass: Upstream): Promise<Forwarded> {
  let upstream: Response;
  let text: string;
  try {
    upstream = await fetch(bypass(request));
    text = await upstream.text();
  } catch {
    return { response: Response.error() };
  }
  // The client gave up (its timeout, its AbortSignal) as the answer came in: it never sees it, so it is not kept.
  if (request.signal.aborted) return { response: Response.error() };
  const contentType = upstream.headers.get('content-type') ?? '';
  const headers = new Headers(upstream.headers);
  // The body is handed on whole and decoded: the client must not decode it again, nor wait for chunks.
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])
    headers.delete(name);
  return {
    response: new Response(text, { status: upstream.status, statusText: upstream.statusText, headers }),
    received: { ok: upstream.ok && !failedInBand(contentType, text), contentType, text },
  };
}

/**
 * Whether a stream failed after its 200: the API sends an `error` event (overloaded_error, api_error)
 * in place of the rest. The client gets it as an error, as a non-2xx, and the SDK does not retry it.
 * A body that is not a readable stream is left to whoever reads it.
 */
function failedInBand(contentType: string, text: string): boolean {
  if (!contentType.includes('text/event-stream')) return false;
  try {
    return parseSse(text).some((event) => event.type === 'error');
  } catch {
    return false;
  }
}
