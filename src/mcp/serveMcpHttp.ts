import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UsageError } from '../errors/UsageError.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpSession } from './serveMcpSession.js';
import type { ServeMcpSettings } from './serveMcpOptions.js';
import type { McpServerSdk } from './loadMcpSdk.js';

/** The path the MCP endpoint is served at. */
export const MCP_PATH = '/mcp';

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
}

export interface HttpServing {
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
 */
export async function serveHttp(settings: ServeMcpSettings, sdk: McpServerSdk): Promise<HttpServing> {
  const sessions = new Map<string, Session>();
  const pending = new Set<Session>();
  /** For a server on a loopback address: the Host values it answers (set once it listens). */
  let allowedHosts: Set<string> | undefined = new Set();
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `The MCP server failed on this request (${(error as Error).name}).`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (allowedHosts !== undefined && !allowedHosts.has(req.headers.host ?? ''))
      return reply(res, 403, 'This Host is not served.');
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH)
      return reply(res, 404, `The MCP endpoint is ${MCP_PATH}.`);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (session === undefined) return reply(res, 404, 'No such session: start a new one with initialize.');
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'Start a session with a POST of initialize.');
    const session = startSession();
    pending.add(session);
    try {
      await session.transport.handleRequest(req, res);
    } finally {
      pending.delete(session);
      // Anything but an initialize is refused by the transport, and leaves no session to keep.
      if (session.transport.sessionId === undefined) await session.server.close();
    }
  }

  function startSession(): Session {
    const transport = new sdk.http.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = createMcpSession(settings, sdk);
    const session = { server, transport };
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
      await Promise.all([...sessions.values(), ...pending].map((session) => session.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
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

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
