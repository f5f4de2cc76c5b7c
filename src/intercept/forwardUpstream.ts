/** What forwarding a request gave: the response to hand to the client, and its body text when it came. */
export interface Forwarded {
  response: Response;
  /** The response's status, content type and whole body, when the API answered at all. */
  received?: { ok: boolean; contentType: string; text: string };
}

/**
 * Sends an intercepted request on to the API, past the interception (`bypass`), and builds the
 * response handed back to the client: the same status and headers, the body whole and decoded.
 * A request that got no response (refused, reset) gives the client a network error, as it would have.
 * The client's abort (its timeout, its AbortSignal) travels with the request and cancels the upstream
 * call; an answer that came in whole just as the client gave up is not kept, since it never sees it.
 */
export async function forwardUpstream(request: Request, bypass: (request: Request) => Request): Promise<Forwarded> {
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
  const headers = new Headers(upstream.headers);
  // The body is handed on whole and decoded: the client must not decode it again, nor wait for chunks.
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])
    headers.delete(name);
  return {
    response: new Response(text, { status: upstream.status, statusText: upstream.statusText, headers }),
    received: { ok: upstream.ok, contentType: upstream.headers.get('content-type') ?? '', text },
  };
}
