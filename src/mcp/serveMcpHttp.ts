import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors/UsageError.js';
import { HttpSessions, systemClock, type HttpSession, type SessionClock } from './serveMcpHttpSessions.js';
import { createMcpSession } from './serveMcpSession.js';
import type { ServeMcpSettings } from './serveMcpOptions.js';
import type { McpServerSdk } from './loadMcpSdk.js';

/** The path the MCP endpoint is served at. */
const MCP_PATH = '/mcp';
/** The largest request body read (the SDK's own default, given to it too, so both read the same). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The JSON-RPC error code of every refusal here: implementation-defined server error. */
const SERVER_ERROR = -32000;
const PARSE_ERROR = -32700;

interface HttpServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP at `http://host:port/mcp`, one SDK server per session: a POST
 * without a session id starts one (it must be `initialize`), later requests carry its
 * `mcp-session-id`; a DELETE ends it. Each session has its own contracts' state. On a loopback
 * address, a request whose `Host` is not this server's is refused (403), so a web page cannot reach
 * it through DNS rebinding; on any other address, access control is the network's (or a proxy's).
 *
 * Bounded: at most `maxSessions` sessions (refused with 503 beyond), each closed after
 * `idleTimeoutMs` without a request, and every request's headers and body must arrive within
 * `readTimeoutMs` (Node's `requestTimeout`: 408, the connection closed). A POST that would start a
 * session is read in full before it counts towards the limit, so a stalled upload holds a
 * connection until it times out, never a session.
 */
export async function serveHttp(
  settings: ServeMcpSettings,
  sdk: McpServerSdk,
  clock: SessionClock = systemClock,
): Promise<HttpServing> {
  const sessions = new HttpSessions(settings, clock);
  /** For a server on a loopback address: the Host values it answers (set once it listens). */
  let allowedHosts: Set<string> | undefined = new Set();
  const http = createServer(
    {
      requestTimeout: settings.readTimeoutMs,
      headersTimeout: settings.readTimeoutMs,
      // Node checks for late requests on this period (30 s by default): a tenth of the timeout keeps it near its word.
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(settings.readTimeoutMs / 10)),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (res.destroyed) return;
        if (!res.headersSent)
          reply(res, 500, SERVER_ERROR, `The MCP server failed on this request (${(error as Error).name}).`);
        else res.end();
      });
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (allowedHosts !== undefined && !allowedHosts.has(req.headers.host ?? ''))
      return reply(res, 403, SERVER_ERROR, 'This Host is not served.');
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH)
      return reply(res, 404, SERVER_ERROR, `The MCP endpoint is ${MCP_PATH}.`);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (session === undefined)
        return reply(res, 404, SERVER_ERROR, 'No such session: start a new one with initialize.');
      sessions.track(session, res);
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, SERVER_ERROR, 'Start a session with a POST of initialize.');
    const body = await readBody(req);
    if (body === undefined)
      return reply(res, 413, SERVER_ERROR, `The request body is over the limit of ${MAX_BODY_BYTES} bytes.`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return reply(res, 400, PARSE_ERROR, 'Parse error: the request body is not JSON.');
    }
    if (!sessions.hasRoom()) return refuseForLimit(res);
    const session = startSession();
    sessions.admit(session);
    sessions.track(session, res);
    try {
      await session.transport.handleRequest(req, res, message);
    } finally {
      sessions.settled(session);
      // Anything but an initialize is refused by the transport, and leaves no session to keep.
      if (session.transport.sessionId === undefined) await session.server.close();
    }
  }

  function refuseForLimit(res: ServerResponse): void {
    const seconds = sessions.retryAfterSeconds();
    res.setHeader('retry-after', String(seconds));
    reply(
      res,
      503,
      SERVER_ERROR,
      `This server has its limit of ${sessionCount(settings.maxSessions)} open (maxSessions); try again in ` +
        `${seconds} s, when an idle one may have expired, or end a session you no longer use (DELETE). Its ` +
        'operator can raise maxSessions (legate mcp serve --max-sessions).',
    );
  }

  function startSession(): HttpSession {
    const transport = new sdk.http.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => sessions.opened(id, session),
    });
    transport.onclose = () => sessions.closed(session);
    const server = createMcpSession(settings, sdk);
    const session: HttpSession = { server, transport, inFlight: 0 };
    void server.connect(transport);
    return session;
  }

  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(listenError(settings, error));
    http.once('error', refused);
    http.listen(settings.port, settings.host, () => {
      http.off('error', refused);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  allowedHosts = isLoopback(settings.host) ? new Set([`${host}:${port}`, `localhost:${port}`]) : undefined;
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    port,
    close: async () => {
      await Promise.all(sessions.all().map((session) => session.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/**
 * A request's body, or undefined when it is over MAX_BODY_BYTES (read to its end all the same, so
 * the answer can be sent; the server's read timeout bounds how long that takes). A connection
 * closed before the end rejects.
 */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let over = Number(req.headers['content-length']) > MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    over ||= size > MAX_BODY_BYTES;
    if (!over) chunks.push(chunk);
  }
  return over ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** A port that cannot be listened on is the caller's to change: said as such, with what to do. */
function listenError(settings: ServeMcpSettings, error: NodeJS.ErrnoException): Error {
  const why =
    error.code === 'EADDRINUSE'
      ? 'it is in use (EADDRINUSE)'
      : error.code === 'EACCES'
        ? 'this process may not use it (EACCES)'
        : error.code === 'EADDRNOTAVAIL'
          ? 'the address is not one of this machine (EADDRNOTAVAIL)'
          : undefined;
  if (why === undefined) return error;
  return new UsageError(
    'invalid_serve_option',
    `serveMcp: cannot listen on ${settings.host}:${settings.port}: ${why}; ` +
      'choose another port (0: any free one) or host.',
  );
}

function sessionCount(count: number): string {
  return `${count} session${count === 1 ? '' : 's'}`;
}

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
