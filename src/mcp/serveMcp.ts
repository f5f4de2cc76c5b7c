import { readServeMcpOptions, type ServeMcpOptions } from './serveMcpOptions.js';
import { loadMcpServerSdk } from './loadMcpSdk.js';
import { serveHttp } from './serveMcpHttp.js';
import { createMcpSession } from './serveMcpSession.js';

/** A running MCP server. */
export interface McpServing {
  readonly transport: 'stdio' | 'http';
  /** For `http`: the endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url?: string;
  /** For `http`: the port it listens on (the one chosen, with `port: 0`). */
  readonly port?: number;
  /** Stops serving: every session closed, the port released. Safe to call twice. */
  close(): Promise<void>;
  /** Settles when the server stops: `close()`, or, over stdio, the client closing stdin. */
  readonly closed: Promise<void>;
}

/**
 * Serves legate tools over the Model Context Protocol, with the official SDK's server transports:
 * stdio (this process's stdin and stdout) or Streamable HTTP on a local port. `tools/list` shows
 * each tool's input schema as the Messages API is sent it, its annotations as MCP hints and its
 * `output` schema as `outputSchema`; `tools/call` goes through the guard's contracts (per session)
 * and the binder before the tool runs. See docs/mcp.md, 'Serving legate tools over MCP'.
 */
export async function serveMcp(options: ServeMcpOptions): Promise<McpServing> {
  const settings = readServeMcpOptions(options);
  const sdk = await loadMcpServerSdk();
  let stopped: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  if (settings.transport === 'http') {
    const http = await serveHttp(settings, sdk);
    let closing: Promise<void> | undefined;
    return {
      transport: 'http',
      url: http.url,
      port: http.port,
      close: () => {
        closing ??= http.close().then(stopped);
        return closing;
      },
      closed,
    };
  }
  const server = createMcpSession(settings, sdk);
  const transport = new sdk.stdio.StdioServerTransport();
  server.onclose = stopped;
  // The client closing our stdin ends the session (the SDK's stdio transport does not notice).
  const onEnd = () => void server.close();
  process.stdin.once('end', onEnd);
  await server.connect(transport);
  return {
    transport: 'stdio',
    close: async () => {
      process.stdin.off('end', onEnd);
      await server.close();
    },
    closed,
  };
}
