import { describe, expect, it, vi } from 'vitest';
import { Agent, ScriptedTransport, reply, type AnyTool, type ScriptedReply } from '../../src/index.js';
import { McpCallError, type McpLogEntry } from '../../src/mcp/index.js';
import { useFixtureServer, type FixtureEvent } from './mcpServerFixture.js';

const server = useFixtureServer();

function agent(tools: AnyTool[], script: ScriptedReply[]) {
  return new Agent({ name: 'a', model: 'claude-haiku-5-5', tools, transport: new ScriptedTransport(script) });
}

const calls = (events = server.events()) => events.filter((event) => event.event === 'call');
const cancelled = (events: FixtureEvent[]) =>
  events.some((event) => event.event === 'cancelled' && event.name === 'slow');

describe('mcpTools: an MCP server as legate tools', () => {
  it('lists the tools with their schema, description, title and annotations, flags from the hints', async () => {
    const { tools } = await server.open();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual([
      'weather',
      'send_email',
      'fail',
      'crash',
      'slow',
      'picture',
      'chatty',
      'progress',
      'mutate',
    ]);
    const weather = byName.get('weather')!;
    expect(weather.description).toBe('Current weather for a city.');
    expect(weather.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 } },
    });
    expect(weather.annotations).toMatchObject({ title: 'Weather', readOnly: true, openWorld: false });
    // openWorldHint: false does not make its results trusted: only flags set by hand do.
    expect({ untrusted: weather.untrusted, privileged: weather.privileged, remote: weather.remote }).toEqual({
      untrusted: true,
      privileged: false,
      remote: true,
    });
    const email = byName.get('send_email')!;
    expect({ untrusted: email.untrusted, privileged: email.privileged }).toEqual({ untrusted: true, privileged: true });
    // No hints at all: MCP's defaults (open world, not read-only) read the cautious way.
    const fail = byName.get('fail')!;
    expect({ untrusted: fail.untrusted, privileged: fail.privileged }).toEqual({ untrusted: true, privileged: true });
  });

  it('takes a filter (names or a test) and flags set by hand over the hints', async () => {
    const named = await server.open({ filter: ['weather', 'fail'], flags: { fail: { untrusted: false } } });
    expect(named.tools.map((tool) => tool.name)).toEqual(['weather', 'fail']);
    expect(named.tools[1]!.untrusted).toBe(false);
    expect(named.tools[1]!.privileged).toBe(true);
    const tested = await server.open({ filter: (tool) => tool.annotations?.destructiveHint === true });
    expect(tested.tools.map((tool) => tool.name)).toEqual(['send_email']);
  });

  it('calls a tool through the binder: a refused argument never reaches the server, a valid one does', async () => {
    const { tools } = await server.open();
    const result = await agent(tools, [
      reply.toolUse('weather', { city: '' }),
      reply.toolUse('weather', { city: 'Paris' }),
      reply.text('Done.'),
    ]).run('Weather?');
    expect(result.toolCalls.map((call) => call.outcome)).toEqual(['invalid', 'ok']);
    expect(result.toolCalls[1]!.output).toBe('Sunny in Paris');
    expect(calls()).toEqual([{ event: 'call', name: 'weather', args: { city: 'Paris' } }]);
  });

  it("gives the model an isError result as the tool's error, in the server's words", async () => {
    const { tools } = await server.open();
    const result = await agent(tools, [reply.toolUse('fail', {}), reply.text('Done.')]).run('Go.');
    expect(result.toolCalls[0]).toMatchObject({
      outcome: 'error',
      output: 'No such mailbox',
      error: { error: 'tool_error' },
    });
  });

  it('reports a server dying mid-call as that call failing; the run goes on, the next call reconnects', async () => {
    const { tools } = await server.open();
    const result = await agent(tools, [
      reply.toolUse('crash', {}),
      reply.toolUse('weather', { city: 'Oslo' }),
      reply.text('Done.'),
    ]).run('Go.');
    expect(result.stopReason).toBe('end_turn');
    const crashed = result.toolCalls[0]!;
    expect(crashed).toMatchObject({ outcome: 'error', error: { error: 'tool_failed', errorClass: 'McpCallError' } });
    const cause = (crashed.error as { cause: unknown }).cause;
    expect(cause).toBeInstanceOf(McpCallError);
    expect(cause).toMatchObject({ code: 'mcp_connection_closed', tool: 'crash' });
    expect(result.toolCalls[1]).toMatchObject({ outcome: 'ok', output: 'Sunny in Oslo' });
    expect(server.events().filter((event) => event.event === 'start')).toHaveLength(2);
  });

  it('cancels a call when the run is cancelled: the server is told (notifications/cancelled)', async () => {
    const { tools } = await server.open();
    const controller = new AbortController();
    const run = agent(tools, [reply.toolUse('slow', {}), reply.text('Done.')]).run('Go.', {
      signal: controller.signal,
    });
    await server.until((events) => calls(events).length === 1);
    controller.abort(new Error('stop'));
    await expect(run).rejects.toThrow('stop');
    await server.until(cancelled);
  });

  // The server never answers `slow`: the timeout fires whatever the machine's speed; only when depends on it.
  it('cancels a call the server does not answer within timeoutMs; that call fails and the run goes on', async () => {
    const { tools } = await server.open({ timeoutMs: 200 });
    const result = await agent(tools, [reply.toolUse('slow', {}), reply.text('Done.')]).run('Go.');
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'error', error: { errorClass: 'McpCallError' } });
    expect((result.toolCalls[0]!.error as { cause: unknown }).cause).toMatchObject({ code: 'mcp_timeout' });
    await server.until(cancelled);
  });

  it('lets a call that reports progress outlive timeoutMs (each report resets it)', async () => {
    // The client's clock is the test's (the MCP SDK times a call with setTimeout): the 600 ms timeout can fire only
    // when the test moves the clock. It moves it 500 ms before each of six reports and before the answer: 3.5 s in
    // all, past the timeout, though no gap reaches it. The server reports when the test releases it, then logs the
    // step on the same stream, so the client has handled the report when onLog hears the step.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const heard: string[] = [];
      let wake = () => {};
      const onLog = (entry: McpLogEntry) => {
        heard.push(String(entry.data));
        wake();
      };
      const step = async (n: number) => {
        while (!heard.some((data) => data.startsWith(`step ${n}:`))) await new Promise<void>((go) => (wake = go));
        return heard.find((data) => data.startsWith(`step ${n}:`));
      };
      const { tools } = await server.open({ timeoutMs: 600, onLog });
      const run = agent(tools, [reply.toolUse('progress', {}), reply.text('Done.')]).run('Go.');
      await server.until((events) => calls(events).length === 1);
      for (let n = 1; n <= 6; n++) {
        await vi.advanceTimersByTimeAsync(500);
        server.release(n);
        expect(await step(n)).toBe(`step ${n}: progress reported`);
      }
      await vi.advanceTimersByTimeAsync(500);
      server.release(7);
      const result = await run;
      expect(result.toolCalls[0]).toMatchObject({ outcome: 'ok', output: 'finished' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('says clearly when the server cannot be started', async () => {
    await expect(server.open({ command: 'no-such-mcp-server-command', args: [] })).rejects.toMatchObject({
      code: 'mcp_connect_failed',
      message: expect.stringContaining("'no-such-mcp-server-command'"),
    });
  });

  it('keeps images, says in text what a tool result cannot carry, and adds structured content as JSON', async () => {
    const { tools } = await server.open();
    const result = await agent(tools, [reply.toolUse('picture', {}), reply.text('Done.')]).run('Go.');
    expect(result.toolCalls[0]!.output).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: '[audio of type audio/wav, not shown: tool results carry no audio]' },
      { type: 'text', text: '[resource link: a.txt <file:///a.txt> (text/plain)]' },
      { type: 'text', text: '{"width":2}' },
    ]);
  });

  it('forwards the server’s log messages to onLog', async () => {
    const logs: McpLogEntry[] = [];
    const { tools } = await server.open({ onLog: (entry) => logs.push(entry) });
    await agent(tools, [reply.toolUse('chatty', {}), reply.text('Done.')]).run('Go.');
    expect(logs).toContainEqual({ level: 'warning', logger: 'fixture', data: 'disk almost full' });
  });
});
