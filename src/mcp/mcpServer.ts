import { legateVersion } from '../version.js';
import type { McpSdk } from './loadMcpSdk.js';

/** An MCP client legate can use: the SDK's `Client`, connected. */
export interface McpClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: object[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number; onprogress?: () => void; resetTimeoutOnProgress?: boolean },
  ): Promise<Record<string, unknown>>;
}

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServer {
  command: string;
  args?: readonly string[];
  /** Added to the SDK's default environment (PATH, HOME, ...; not the whole of yours). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** The server's stderr: shown on yours (the default) or dropped. */
  stderr?: 'inherit' | 'ignore';
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServer {
  url: string | URL;
  /** Sent with every request (an Authorization header, say). Never recorded. */
  headers?: Readonly<Record<string, string>>;
}

/** A client you connected yourself; legate neither closes it nor handles its notifications. */
export interface McpClientServer {
  client: McpClient;
}

export type McpServerOptions = McpStdioServer | McpHttpServer | McpClientServer;

/** A connected client, and how to end what legate started. */
export interface McpLink {
  client: McpClient;
  /** The SDK's client when legate made it (notifications can then be handled), else undefined. */
  owned: InstanceType<McpSdk['client']['Client']> | undefined;
  close(): Promise<void>;
}

/** How the server is named in messages. */
export function serverLabel(server: McpServerOptions): string {
  if ('client' in server) return 'the connected MCP client';
  if ('url' in server) return `the MCP server at ${String(server.url)}`;
  return `the MCP server '${[server.command, ...(server.args ?? [])].join(' ')}'`;
}

/** Connects to the server (spawning it, for stdio); a given client is used as it is. */
export async function connectServer(sdk: McpSdk, server: McpServerOptions): Promise<McpLink> {
  if ('client' in server) return { client: server.client, owned: undefined, close: async () => undefined };
  const client = new sdk.client.Client({ name: 'legate', version: legateVersion() }, { capabilities: {} });
  const transport =
    'url' in server
      ? new sdk.http.StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { ...server.headers } },
        })
      : new sdk.stdio.StdioClientTransport({
          command: server.command,
          args: [...(server.args ?? [])],
          env: { ...sdk.stdio.getDefaultEnvironment(), ...server.env },
          ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
          stderr: server.stderr ?? 'inherit',
        });
  await client.connect(transport);
  return { client: client as unknown as McpClient, owned: client, close: () => client.close() };
}

/** Every tool the server lists, following `nextCursor` page by page. */
export async function listAll(client: McpClient): Promise<object[]> {
  const tools: object[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    // A server that hands back a cursor it gave before would have us list forever.
    if (cursor !== undefined && seen.has(cursor)) break;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}
