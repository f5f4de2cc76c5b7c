import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect as connectSocket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { mcpHelp } from '../../cli/commands/mcp.js';
import { defineTool } from '../../src/index.js';
import { loadMcpServerSdk, type McpServerSdk } from '../../src/mcp/loadMcpSdk.js';
import { serveHttp } from '../../src/mcp/serveMcpHttp.js';
import type { SessionClock } from '../../src/mcp/serveMcpHttpSessions.js';
import { readServeMcpOptions } from '../../src/mcp/serveMcpOptions.js';
import { tools } from './fixtures/server-tools.js';
import { useHttpServing } from './serveMcpCases.js';

// serveMcp over Streamable HTTP is bounded: in sessions (maxSessions), in how long a session may idle
// (idleTimeoutMs) and in how long a request may take to arrive (readTimeoutMs). The idle expiry is driven by a
// clock of the test's own, so nothing here waits on the wall clock; the read timeout is Node's own, set small,
// and waited for as the socket's close.

const PROTOCOL = '2025-06-18';
const { open, serve } = useHttpServing();

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  session: string | null;
  body: string;
}

/** A POST of JSON-RPC, as a client sends it; the answer read to its end. */
async function post(url: string, message: object, session?: string): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
    },
    body: JSON.stringify(message),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    session: response.headers.get('mcp-session-id'),
    body: await response.text(),
  };
}

const initialize = (url: string) =>
  post(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
const listTools = (url: string, session: string) => post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);

/** The refusal past the limit, word for word (docs/mcp.md quotes it). */
function refusal(limit: number, seconds: number): string {
  const sessions = `${limit} session${limit === 1 ? '' : 's'}`;
  const message =
    `This server has its limit of ${sessions} open (maxSessions); try again in ${seconds} s, when an idle one may ` +
    'have expired, or end a session you no longer use (DELETE). Its operator can raise maxSessions ' +
    '(legate mcp serve --max-sessions).';
  return JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Timers that fire when the test moves the clock on, and tell when one is set: events, not waits. */
class ManualClock implements SessionClock {
  #now = 0;
  #next = 1;
  readonly #timers = new Map<number, { due: number; run: () => void }>();
  #waiters: (() => void)[] = [];

  now(): number {
    return this.#now;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { due: this.#now + ms, run });
    for (const wake of this.#waiters.splice(0)) wake();
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.#timers.delete(timer as number);
  }

  /** Timers set and not yet fired or cleared: one per idle session. */
  get live(): number {
    return this.#timers.size;
  }

  /** Settles once `count` timers are live. */
  async until(count: number): Promise<void> {
    while (this.#timers.size < count) await new Promise<void>((wake) => this.#waiters.push(wake));
  }

  /** Moves the clock on, firing every timer that falls due, in order. */
  advance(ms: number): void {
    this.#now += ms;
    const due = [...this.#timers].filter(([, t]) => t.due <= this.#now).sort(([, a], [, b]) => a.due - b.due);
    for (const [id, timer] of due) {
      this.#timers.delete(id);
      timer.run();
    }
  }
}

/** The real SDK, whose servers are recorded as they are made, to see which were closed. */
async function recordingSdk(): Promise<{ sdk: McpServerSdk; servers: Server[]; closed: Server[] }> {
  const real = await loadMcpServerSdk();
  const servers: Server[] = [];
  const closed: Server[] = [];
  const Server = new Proxy(real.server.Server, {
    construct(target, args, newTarget) {
      const server = Reflect.construct(target, args, newTarget) as Server;
      servers.push(server);
      const close = server.close.bind(server);
      server.close = () => {
        closed.push(server);
        return close();
      };
      return server;
    },
  });
  return { sdk: { ...real, server: { ...real.server, Server } }, servers, closed };
}

/** serveHttp itself, with the test's clock and the recording SDK. */
async function serveWithClock(options: Record<string, unknown>, extraTools: unknown[] = []) {
  const clock = new ManualClock();
  const { sdk, servers, closed } = await recordingSdk();
  const settings = readServeMcpOptions({ tools: [...tools, ...extraTools], transport: 'http', ...options });
  const serving = await serveHttp(settings, sdk, clock);
  open.push(serving);
  return { url: serving.url, serving, clock, servers, closed };
}

describe('serveMcp over HTTP: at most maxSessions sessions', () => {
  it('refuses the session past the limit with 503, Retry-After and the limit named; a DELETE makes room', async () => {
    // The test's clock stands still, so the soonest a place can free by expiry is a whole idle timeout away (600 s by
    // default), whether or not the clients' sessions have started to idle.
    const { url } = await serveWithClock({ maxSessions: 2 });
    const first = await connect(url);
    await connect(url);
    const refused = await initialize(url);
    expect(refused.status).toBe(503);
    expect(refused.session).toBeNull();
    expect(refused.retryAfter).toBe('600');
    expect(refused.body).toBe(refusal(2, 600));
    // docs/mcp.md quotes it.
    expect(readFileSync('docs/mcp.md', 'utf8')).toContain(`\`${refusal(2, 600)}\``);
    // The official client reports it as what it is.
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const error = await client.connect(new StreamableHTTPClientTransport(new URL(url))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 503, message: expect.stringContaining(refusal(2, 600)) });
    await first.transport.terminateSession();
    const third = await connect(url);
    expect((await third.client.listTools()).tools).toHaveLength(tools.length);
  });

  it('counts sessions still initializing: of many initializes at once, exactly the limit are admitted', async () => {
    // Each session's transport holds its initialize until the test opens the gate, so all of them are pending at
    // once: the limit must count those too.
    const real = await loadMcpServerSdk();
    let held = 0;
    let answered = 0;
    let changed: () => void = () => {};
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    class GatedTransport extends real.http.StreamableHTTPServerTransport {
      override async handleRequest(
        ...args: Parameters<InstanceType<typeof real.http.StreamableHTTPServerTransport>['handleRequest']>
      ) {
        held++;
        changed();
        await gate;
        return super.handleRequest(...args);
      }
    }
    const sdk = { ...real, http: { ...real.http, StreamableHTTPServerTransport: GatedTransport } };
    const serving = await serveHttp(readServeMcpOptions({ tools, transport: 'http', maxSessions: 3 }), sdk);
    open.push(serving);
    const answers = Array.from({ length: 12 }, () =>
      initialize(serving.url).then((answer) => {
        answered++;
        changed();
        return answer;
      }),
    );
    while (held + answered < 12)
      await new Promise<void>((resolve) => {
        changed = resolve;
      });
    openGate();
    const settled = await Promise.all(answers);
    expect(held).toBe(3);
    expect(settled.map((answer) => answer.status).sort()).toEqual([200, 200, 200, ...Array<number>(9).fill(503)]);
    expect(new Set(settled.map((answer) => answer.session).filter((id) => id !== null)).size).toBe(3);
  });

  it('tells in Retry-After when the soonest idle session expires', async () => {
    const { url, clock } = await serveWithClock({ maxSessions: 2, idleTimeoutMs: 90_000 });
    await initialize(url);
    await clock.until(1);
    clock.advance(30_000);
    await initialize(url);
    await clock.until(2);
    clock.advance(200);
    const refused = await initialize(url);
    expect([refused.status, refused.retryAfter, refused.body]).toEqual([503, '60', refusal(2, 60)]);
  });
});

describe('serveMcp over HTTP: an idle session expires', () => {
  it('closes a session with no request for idleTimeoutMs: its SDK server closed, its id then 404', async () => {
    const { url, clock, servers, closed } = await serveWithClock({ idleTimeoutMs: 60_000 });
    const { session } = await initialize(url);
    await clock.until(1);
    clock.advance(59_999);
    expect((await listTools(url, session!)).status).toBe(200);
    // The request started the wait again.
    await clock.until(1);
    clock.advance(59_999);
    expect(closed).toEqual([]);
    clock.advance(1);
    expect(closed).toEqual(servers);
    expect(servers).toHaveLength(1);
    expect(servers[0]!.transport).toBeUndefined();
    const gone = await listTools(url, session!);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body)).toMatchObject({
      error: { message: 'No such session: start a new one with initialize.' },
    });
    expect(clock.live).toBe(0);
  });

  it('never expires a session with an SSE stream open; it expires once the stream closes', async () => {
    const { url, clock, closed } = await serveWithClock({ idleTimeoutMs: 60_000 });
    const { session } = await initialize(url);
    await clock.until(1);
    const stream = new AbortController();
    const listening = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session!, 'mcp-protocol-version': PROTOCOL },
      signal: stream.signal,
    });
    expect(listening.status).toBe(200);
    expect(clock.live).toBe(0);
    clock.advance(10 * 60_000);
    expect(closed).toEqual([]);
    expect((await listTools(url, session!)).status).toBe(200);
    expect(clock.live).toBe(0);
    stream.abort();
    await clock.until(1);
    clock.advance(60_000);
    expect(closed).toHaveLength(1);
    expect((await listTools(url, session!)).status).toBe(404);
  });

  it('never expires a session whose tool call is running', async () => {
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = defineTool({
      name: 'slow',
      description: 'Answers when the test says.',
      input: { type: 'object', properties: {} },
      run: async () => {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return 'done';
      },
    });
    const { url, clock, closed } = await serveWithClock({ idleTimeoutMs: 60_000 }, [slow]);
    const { session } = await initialize(url);
    await clock.until(1);
    const call = post(
      url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } },
      session!,
    );
    await running;
    expect(clock.live).toBe(0);
    clock.advance(10 * 60_000);
    expect(closed).toEqual([]);
    release();
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"text":"done"');
    await clock.until(1);
    clock.advance(60_000);
    expect(closed).toHaveLength(1);
  });

  it('forgets expired sessions: round after round the limit admits as many again; no timer outlives them', async () => {
    const { url, clock, serving, servers, closed } = await serveWithClock({ maxSessions: 2, idleTimeoutMs: 1_000 });
    for (let round = 1; round <= 10; round++) {
      const admitted = [await initialize(url), await initialize(url)];
      expect(admitted.map((answer) => answer.status)).toEqual([200, 200]);
      expect((await initialize(url)).status).toBe(503);
      await clock.until(2);
      expect(clock.live).toBe(2);
      clock.advance(1_000);
      expect(closed).toHaveLength(2 * round);
      for (const { session } of admitted) expect((await listTools(url, session!)).status).toBe(404);
    }
    // Each admitted session had one SDK server, and each was closed; the refused ones made none.
    expect(servers).toHaveLength(20);
    expect(closed).toEqual(servers);
    await initialize(url);
    await clock.until(1);
    await serving.close();
    expect(clock.live).toBe(0);
  });
});

describe('serveMcp over HTTP: a request must arrive within readTimeoutMs', () => {
  /**
   * A raw connection that sends a POST's headers and part of its body, then stalls. `Expect: 100-continue` makes
   * the server say when it has the headers (and has handed the request on), so the test knows the stall began.
   */
  async function stalledUpload(port: number) {
    const socket = connectSocket(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const closed = once(socket, 'close');
    socket.write(
      'POST /mcp HTTP/1.1\r\n' +
        `Host: 127.0.0.1:${port}\r\n` +
        'Content-Type: application/json\r\n' +
        'Accept: application/json, text/event-stream\r\n' +
        'Content-Length: 200\r\n' +
        'Expect: 100-continue\r\n\r\n',
    );
    while (!received.includes('100 Continue')) await once(socket, 'data');
    socket.write('{"jsonrpc":"2.0","id":1,"method":"initi');
    open.push({ close: async () => void socket.destroy() });
    return { socket, closed, received: () => received };
  }

  it('answers a body that stalls 408 and closes its connection; a new session still starts', async () => {
    const serving = await serve({ readTimeoutMs: 200 });
    const upload = await stalledUpload(serving.port!);
    await upload.closed;
    expect(upload.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 408 Request Timeout\r\n/);
    const { client } = await connect(serving.url!);
    expect((await client.listTools()).tools).toHaveLength(tools.length);
  });

  it('counts no session for a stalled upload: as many stalls as the limit, and sessions still start', async () => {
    const serving = await serve({ maxSessions: 2 });
    const stalls = [await stalledUpload(serving.port!), await stalledUpload(serving.port!)];
    await connect(serving.url!);
    const { client } = await connect(serving.url!);
    expect((await client.listTools()).tools).toHaveLength(tools.length);
    for (const stall of stalls) expect(stall.socket.destroyed).toBe(false);
  });
});

describe('the bounds as documented', () => {
  it('docs/mcp.md, docs/cli.md and legate mcp serve --help state the defaults serveMcp has', () => {
    const settings = readServeMcpOptions({ tools, transport: 'http' });
    const grouped = (n: number) => n.toLocaleString('en-US');
    const mcpDoc = readFileSync('docs/mcp.md', 'utf8');
    const cliDoc = readFileSync('docs/cli.md', 'utf8');
    expect(mcpDoc).toContain(`| \`maxSessions\` (\`--max-sessions\`) | ${settings.maxSessions} |`);
    expect(mcpDoc).toContain(
      `| \`idleTimeoutMs\` (\`--idle-timeout\`) | ${grouped(settings.idleTimeoutMs)} (10 minutes) |`,
    );
    expect(mcpDoc).toContain(`| \`readTimeoutMs\` (\`--read-timeout\`) | ${grouped(settings.readTimeoutMs)} |`);
    expect(settings.idleTimeoutMs).toBe(10 * 60_000);
    expect(cliDoc).toContain(`the most sessions at once (default ${settings.maxSessions})`);
    expect(cliDoc).toContain(`(default ${settings.idleTimeoutMs}, 10 minutes)`);
    expect(cliDoc).toContain(`is answered 408 (default ${settings.readTimeoutMs})`);
    const help = mcpHelp.replace(/\s+/g, ' ');
    expect(help).toContain(`at most --max-sessions sessions (default ${settings.maxSessions})`);
    expect(help).toContain(`--idle-timeout milliseconds (default ${settings.idleTimeoutMs}, 10 minutes)`);
    expect(help).toContain(`over --read-timeout milliseconds to arrive (default ${settings.readTimeoutMs})`);
  });
});
