import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { RuleConfigurationError, UsageError, rules } from '../../src/index.js';
import { serveMcp, type McpServing } from '../../src/mcp/index.js';
import {
  expectFailingTool,
  expectListing,
  expectOutputSchemaTool,
  expectRefusedArgument,
  expectToolErrorResult,
  expectUnknownTool,
  expectValidCall,
  textOf,
  useHttpServing,
} from './serveMcpCases.js';
import { tools } from './fixtures/server-tools.js';

const { open, serve } = useHttpServing();

async function connect(serving: McpServing): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url!)));
  open.push(client);
  return client;
}

describe('serveMcp over Streamable HTTP, on a real local port', () => {
  it('serves at http://127.0.0.1:<port>/mcp, on a free port when asked for 0', async () => {
    const serving = await serve();
    expect(serving.transport).toBe('http');
    expect(serving.port).toBeGreaterThan(0);
    expect(serving.url).toBe(`http://127.0.0.1:${serving.port}/mcp`);
  });

  it('lists the tools: schemas as legate publishes them, annotations as hints, outputSchema', async () => {
    await expectListing(await connect(await serve()));
  });

  it('answers a valid call', async () => {
    await expectValidCall(await connect(await serve()));
  });

  it('refuses an argument with structured content, never quoting the value', async () => {
    await expectRefusedArgument(await connect(await serve()));
  });

  it('answers an output-schema tool with structuredContent the client validates', async () => {
    await expectOutputSchemaTool(await connect(await serve()));
  });

  it('tells only the tool and the error class of a tool that throws', async () => {
    await expectFailingTool(await connect(await serve()));
  });

  it("passes a tool's own error result as an error with its words", async () => {
    await expectToolErrorResult(await connect(await serve()));
  });

  it('answers an unknown tool with the protocol error', async () => {
    await expectUnknownTool(await connect(await serve()));
  });

  it('keeps contracts per session: each session has its own count', async () => {
    const serving = await serve({ contracts: [rules.limit('echo', 2)] });
    const first = await connect(serving);
    const call = (client: Client) => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect((await call(first)).isError).toBeFalsy();
    expect((await call(first)).isError).toBeFalsy();
    const blocked = await call(first);
    const message = "Tool 'echo' was blocked: it may be called at most 2 times in a run, and that limit is reached.";
    expect(blocked).toEqual({
      isError: true,
      content: [{ type: 'text', text: JSON.stringify({ error: 'blocked', rule: 'limit', message }) }],
      structuredContent: { error: 'blocked', rule: 'limit', message },
    });
    const second = await connect(serving);
    expect((await call(second)).isError).toBeFalsy();
    expect(textOf(await call(second))).toBe('hi');
    expect((await call(second)).isError).toBe(true);
  });

  it('holds back calls of a tool whose prerequisite has not succeeded in the session', async () => {
    const serving = await serve({ contracts: [rules.require('echo', 'lookup')] });
    const client = await connect(serving);
    const early = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(early.structuredContent).toMatchObject({ error: 'blocked', rule: 'prerequisite' });
    // A tool's own error result is not a success: still held back.
    await client.callTool({ name: 'lookup', arguments: { id: 'B-1' } });
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).isError).toBe(true);
    await client.callTool({ name: 'lookup', arguments: { id: 'A-1' } });
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('ends a session on DELETE: its id is then unknown (404)', async () => {
    const serving = await serve();
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(serving.url!));
    await client.connect(transport);
    open.push(client);
    const id = transport.sessionId!;
    await transport.terminateSession();
    const response = await fetch(serving.url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });

  it('refuses a request whose Host is not the server (DNS rebinding)', async () => {
    const serving = await serve();
    // fetch sets Host itself: a raw request says what a rebound name would send.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(serving.url!, {
        method: 'POST',
        headers: { host: `attacker.example:${serving.port}` },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.end('{}');
    });
    expect(status).toBe(403);
  });

  it('releases the port on close', async () => {
    const serving = await serveMcp({ tools, transport: 'http' });
    await serving.close();
    await serving.closed;
    await expect(fetch(serving.url!, { method: 'POST' })).rejects.toThrow();
  });
});

describe('serveMcp options', () => {
  it.each([
    ['no tools', { tools: [] }, /'tools' must be a non-empty list/],
    ['not a tool', { tools: [{ name: 'x' }] }, /tools\[0\] must be a tool made with defineTool/],
    ['two of one name', { tools: [tools[0], tools[0]] }, /two tools are named 'echo'/],
    ['an unknown option', { tools, trasnport: 'http' }, /trasnport/],
    [
      'a bad transport',
      { tools, transport: 'sse' },
      /'transport' must be 'stdio' or 'http', but it was the string "sse"/,
    ],
    ['a bad port', { tools, transport: 'http', port: 70000 }, /'port' must be a whole number from 0 to 65535/],
    ['a port over stdio', { tools, port: 3000 }, /'port' is for transport: 'http'/],
    [
      'no room for a session',
      { tools, transport: 'http', maxSessions: 0 },
      /'maxSessions' must be a whole number of at least 1, but it was the number 0/,
    ],
    [
      'an idle timeout longer than a timer waits',
      { tools, transport: 'http', idleTimeoutMs: 2 ** 31 },
      /'idleTimeoutMs' must be a whole number of milliseconds from 1 to 2147483647 \(about 24\.8 days\), but it was/,
    ],
    [
      'a read timeout in words',
      { tools, transport: 'http', readTimeoutMs: '30s' },
      /'readTimeoutMs' must be a whole number of milliseconds .*, but it was the string "30s"/,
    ],
    [
      'a session limit over stdio',
      { tools, maxSessions: 5 },
      /^serveMcp: 'maxSessions' is for transport: 'http'; over stdio there is one session, the process's\. Add/,
    ],
    ['an idle timeout over stdio', { tools, idleTimeoutMs: 5 }, /'idleTimeoutMs' is for transport: 'http'/],
    ['a read timeout over stdio', { tools, readTimeoutMs: 5 }, /'readTimeoutMs' is for transport: 'http'/],
    ['a contract that is not a rule', { tools, contracts: [{ kind: 'never' }] }, /contracts\[0\] must be a rule/],
  ])('refuses %s with a UsageError', async (_, options, message) => {
    const error = await serveMcp(options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('invalid_serve_option');
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a port in use with a UsageError that says so', async () => {
    const taken = await serve();
    const error = await serveMcp({ tools, transport: 'http', port: taken.port! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `serveMcp: cannot listen on 127.0.0.1:${taken.port}: it is in use (EADDRINUSE); choose another port ` +
        '(0: any free one) or host.',
    );
  });

  it('refuses a contract naming a tool it does not serve', async () => {
    const error = await serveMcp({ tools, contracts: [rules.limit('send', 1)] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuleConfigurationError);
    expect((error as Error).message).toMatch(/names 'send', which is not a served tool/);
  });
});
