import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { builtLegate } from '../support/builtPackage.js';
import { captureIo } from '../support/captureIo.js';
import {
  expectFailingTool,
  expectListing,
  expectOutputSchemaTool,
  expectRefusedArgument,
  expectToolErrorResult,
  expectUnknownTool,
  expectValidCall,
} from './serveMcpCases.js';

// The processes here are the subject (a real server over stdio and HTTP, a process that ends when its input does):
// they run the built package, as users do. The fixtures import `legate`, which is dist/ in a process of its own (the
// package's name, resolved by its exports) and the source in this one (vitest.config.ts's aliases).
const root = resolve('.');
const loader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const fixture = 'test/mcp/fixtures/server-tools.ts';
/** A hang guard, not a speed check: as long as the MCP client's own wait for an answer (60 s by default). */
const HANG_GUARD = 60_000;
const env = { ...(process.env as Record<string, string>), NO_COLOR: '1', VITEST: '', LEGATE_DEBUG: '' };

const clients: Client[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await once(child, 'exit');
    }
  }
});

/** `legate mcp serve <fixture>` as a real child process, spoken to over its stdin and stdout. */
async function serveOverStdio(...options: string[]): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [await builtLegate(), 'mcp', 'serve', fixture, ...options],
    cwd: root,
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

describe('legate mcp serve over stdio, a real child process', () => {
  it(
    "lists, calls, refuses and fails as serveMcp does, with the module's contracts",
    async () => {
      const { client } = await serveOverStdio();
      await expectListing(client);
      await expectValidCall(client);
      await expectRefusedArgument(client);
      await expectOutputSchemaTool(client);
      await expectFailingTool(client);
      await expectToolErrorResult(client);
      await expectUnknownTool(client);
      // The module's contracts: at most two echoes in the session, and both are spent (a refused argument counts).
      const blocked = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(blocked.structuredContent).toMatchObject({ error: 'blocked', rule: 'limit' });
    },
    HANG_GUARD,
  );

  it(
    'closes the server (serving.closed settles) when the client closes its standard input',
    async () => {
      const script = 'test/mcp/fixtures/server-stdio.ts';
      await builtLegate(); // the script imports the built package
      const child = spawn(process.execPath, ['--import', loader, script], { cwd: root, env });
      children.push(child);
      let err = '';
      child.stderr!.setEncoding('utf8');
      await new Promise<void>((serving) => {
        child.stderr!.on('data', (chunk: string) => {
          err += chunk;
          if (err.includes('serving\n')) serving();
        });
      });
      const exited = once(child, 'exit');
      child.stdin!.end();
      expect(await exited).toEqual([0, null]);
      expect(err).toBe('serving\nclosed\n');
    },
    HANG_GUARD,
  );

  it(
    'serves only the tools --tools names',
    async () => {
      const { client } = await serveOverStdio('--tools', 'lookup,forecast');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['lookup', 'forecast']);
    },
    HANG_GUARD,
  );
});

describe('legate mcp serve --http, a real child process on a real port', () => {
  it(
    'prints the URL and serves Streamable HTTP there until interrupted',
    async () => {
      const legate = await builtLegate();
      const args = ['mcp', 'serve', fixture, '--http', '0', '--max-sessions', '1', '--idle-timeout', '60000'];
      const child = spawn(process.execPath, [legate, ...args, '--read-timeout', '5000'], { cwd: root, env });
      children.push(child);
      let out = '';
      child.stdout!.setEncoding('utf8');
      const url = await new Promise<string>((resolveUrl, reject) => {
        child.stdout!.on('data', (chunk: string) => {
          out += chunk;
          const found = /serving 4 tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
          if (found !== null) resolveUrl(found[1]!);
        });
        child.once('exit', (code) => reject(new Error(`legate exited with ${code} before serving: ${out}`)));
      });
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      await expectValidCall(client);
      await expectRefusedArgument(client);
      // --max-sessions 1: the client holds the one session there is room for.
      const second = new Client({ name: 'test-client', version: '1.0.0' });
      const refused = await second.connect(new StreamableHTTPClientTransport(new URL(url))).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 503, message: expect.stringContaining('its limit of 1 session open') });
      await client.close();
      clients.splice(0);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    },
    HANG_GUARD,
  );
});

describe('legate mcp serve refusals', () => {
  it.each([
    [['mcp'], /legate mcp: give a verb; the verbs are 'list' and 'serve'/],
    [['mcp', 'start'], /'start' is not a verb/],
    [['mcp', 'serve'], /give one module whose tools to serve/],
    [['mcp', 'serve', fixture, '--http', 'eighty'], /--http must be a port, .* but it was "eighty"/],
    [['mcp', 'serve', fixture, '--host', '0.0.0.0'], /--host is for --http <port>/],
    [['mcp', 'serve', fixture, '--idle-timeout', '60000'], /--idle-timeout is for --http <port>; over stdio there/],
    [
      ['mcp', 'serve', fixture, '--http', '0', '--max-sessions', '0'],
      /--max-sessions must be a whole number of at least 1, but it was "0"\.$/,
    ],
    [['mcp', 'serve', fixture, '--http', '0', '--read-timeout', '30s'], /--read-timeout must be .* but it was "30s"/],
    [
      ['mcp', 'serve', fixture, '--http', '0', '--idle-timeout', '9999999999'],
      /'idleTimeoutMs' must be a whole number of milliseconds from 1 to 2147483647 \(about 24\.8 days\)/,
    ],
    [
      ['mcp', 'serve', fixture, '--tools', 'echo,send'],
      /'send' is not a tool of .*server-tools\.ts; it exports 'echo', 'forecast'/,
    ],
    [['mcp', 'serve', 'test/mcp/fixtures/missing.ts'], /missing\.ts/],
    [['mcp', 'serve', fixture, '--bogus'], /unknown option '--bogus'/],
  ])('legate %j exits 2 with one line', async (args, message) => {
    const io = captureIo(root);
    expect(await main(args, io)).toBe(2);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(message);
  });
});
