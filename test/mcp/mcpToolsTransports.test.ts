import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, reply, type AnyTool } from '../../src/index.js';
import { McpCallError, mcpTools, type McpTools } from '../../src/mcp/index.js';
import { buildServer } from './fixtures/client-tools.mjs';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function weatherRun(tools: AnyTool[], city: string) {
  return new Agent({
    name: 'a',
    model: 'claude-haiku-5-5',
    tools,
    transport: new ScriptedTransport([reply.toolUse('weather', { city }), reply.text('Done.')]),
  }).run('Weather?');
}

/** The fixture server over Streamable HTTP on a local port (stateless: a server per request). */
async function httpServer(): Promise<{ url: string; headers: IncomingHttpHeaders[] }> {
  const headers: IncomingHttpHeaders[] = [];
  const http: HttpServer = createServer(async (request, response) => {
    headers.push(request.headers);
    const { server } = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, headers };
}

async function opened(tools: McpTools): Promise<McpTools> {
  cleanups.push(() => tools.close());
  return tools;
}

describe('mcpTools over Streamable HTTP', () => {
  it('lists and calls the tools of a server on a local port, sending the headers given', async () => {
    const { url, headers } = await httpServer();
    const mcp = await opened(await mcpTools({ url, headers: { authorization: 'Bearer t0ken' } }));
    expect(mcp.tools.map((tool) => tool.name)).toContain('weather');
    const result = await weatherRun(mcp.tools, 'Lima');
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'ok', output: 'Sunny in Lima' });
    expect(headers.every((sent) => sent.authorization === 'Bearer t0ken')).toBe(true);
  });

  it('says clearly when there is no server at the address', async () => {
    const { url } = await httpServer();
    await cleanups.pop()!();
    await expect(mcpTools({ url })).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof McpCallError && error.code === 'mcp_connect_failed' && error.message.includes(url),
    );
  });
});

describe('mcpTools over a client you connected', () => {
  it("reports a server's JSON-RPC error as that call's failure, with the server's words for the caller", async () => {
    const server = new Server({ name: 'broken', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'weather',
          description: 'Weather.',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      throw new McpError(ErrorCode.InternalError, 'database down');
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'mine', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    const mcp = await mcpTools({ client });
    const result = await weatherRun(mcp.tools, 'Kyiv');
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'error', error: { errorClass: 'McpCallError' } });
    expect((result.toolCalls[0]!.error as { cause: unknown }).cause).toMatchObject({
      code: 'mcp_server_error',
      rpcCode: ErrorCode.InternalError,
      message: expect.stringContaining('database down'),
    });
  });

  it('uses the client as it is, and leaves it open when closed', async () => {
    const { server } = buildServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'mine', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    const mcp = await mcpTools({ client, filter: ['weather'] });
    const result = await weatherRun(mcp.tools, 'Kyiv');
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'ok', output: 'Sunny in Kyiv' });
    await mcp.close();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
