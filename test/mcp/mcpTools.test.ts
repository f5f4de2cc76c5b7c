import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, ScriptedTransport, reply, runTrajectory, type AnyTool, type ScriptedReply } from '../../src/index.js';
import { McpCallError, McpPinError, type McpLogEntry } from '../../src/mcp/index.js';
import { useFixtureServer, type FixtureEvent } from './mcpServerFixture.js';

const server = useFixtureServer();
afterEach(() => vi.unstubAllEnvs());

function agent(tools: AnyTool[], script: ScriptedReply[]) {
  return new Agent({ name: 'a', model: 'claude-haiku-5-5', tools, transport: new ScriptedTransport(script) });
}

const calls = (events = server.events()) => events.filter((event) => event.event === 'call');
const cancelled = (events: FixtureEvent[]) =>
  events.some((event) => event.event === 'cancelled' && event.name === 'slow');
const pinFile = () => join(server.tempDir(), 'mcp-pins.json');
const starts = () => server.events().filter((event) => event.event === 'start').length;

/**
 * The fixture's weather reads a closed world, which does not make its results trusted: marked trusted here so that
 * the writes after it run (a tainted run refuses them: test/mcp/mcpHintsTrust.test.ts).
 */
const weatherTrusted = { weather: { untrusted: false } };

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

describe('mcpTools with a pin file', () => {
  it('writes the pins when there are none: readable JSON, what each tool was listed with, in its order', async () => {
    await server.open({ pin: pinFile(), filter: ['weather', 'send_email'] });
    const pins = JSON.parse(readFileSync(pinFile(), 'utf8'));
    expect(pins.version).toBe(1);
    expect(pins.tools.map((tool: { name: string }) => tool.name)).toEqual(['weather', 'send_email']);
    expect(pins.tools[0]).toEqual({
      name: 'weather',
      title: 'Weather',
      description: 'Current weather for a city.',
      inputSchema: expect.objectContaining({ type: 'object', properties: { city: { type: 'string', minLength: 1 } } }),
      annotations: { openWorldHint: false, readOnlyHint: true },
    });
    expect(Object.keys(pins.tools[0])).toEqual(['name', 'title', 'description', 'inputSchema', 'annotations']);
  });

  it('builds the tools from the pins without starting the server, and connects on the first call', async () => {
    const first = await server.open({ pin: pinFile() });
    await first.close();
    const before = starts();
    const pinned = await server.open({ pin: pinFile() });
    expect(starts()).toBe(before);
    expect(pinned.tools.map((tool) => tool.definition())).toEqual(first.tools.map((tool) => tool.definition()));
    expect(pinned.tools.map((tool) => [tool.untrusted, tool.privileged])).toEqual(
      first.tools.map((tool) => [tool.untrusted, tool.privileged]),
    );
    const result = await agent(pinned.tools, [reply.toolUse('weather', { city: 'Rome' }), reply.text('Done.')]).run(
      'Go.',
    );
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'ok', output: 'Sunny in Rome' });
    expect(starts()).toBe(before + 1);
  });

  it('stops the run when a pinned tool changed on the server, naming the tool and what changed', async () => {
    await (await server.open({ pin: pinFile() })).close();
    const changed = await server.open({ pin: pinFile() }, 'changed');
    const run = agent(changed.tools, [
      reply.toolUse('send_email', { to: 'a@b.co', body: 'hi' }),
      reply.text('Done.'),
    ]).run('Go.');
    const error = await run.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpPinError);
    expect(error).toMatchObject({
      code: 'mcp_tool_changed',
      abortsRun: true,
      file: pinFile(),
      changes: [
        {
          tool: 'weather',
          path: 'description',
          expected: 'Current weather for a city.',
          actual: 'Current weather for a city, in Fahrenheit.',
        },
      ],
    });
    // docs/mcp.md quotes this message, its pin file's path aside.
    const quoted = readFileSync('docs/mcp.md', 'utf8')
      .match(/```text\n([\s\S]*?)\n\s*```/)![1]!
      .replace(/^ {2}/gm, '');
    expect((error as Error).message.replace(pinFile(), 'mcp-pins.json')).toBe(quoted);
    expect((error as Error).message).toContain('repin: true');
    // Not even the unchanged tool is called: a server that changed is not trusted until re-pinned.
    expect(calls()).toEqual([]);
  });

  it('re-pins on request: the changed definition is written and used', async () => {
    await (await server.open({ pin: pinFile() })).close();
    const repinned = await server.open({ pin: pinFile(), repin: true }, 'changed');
    expect(repinned.tools.find((tool) => tool.name === 'weather')!.inputSchema).toMatchObject({
      properties: { city: { maxLength: 20 } },
    });
    const pins = JSON.parse(readFileSync(pinFile(), 'utf8'));
    expect(pins.tools.find((tool: { name: string }) => tool.name === 'weather').description).toBe(
      'Current weather for a city, in Fahrenheit.',
    );
  });

  it('re-pins when LEGATE_MCP_REPIN=1, and only then', async () => {
    await (await server.open({ pin: pinFile() })).close();
    const pinned = readFileSync(pinFile(), 'utf8');
    vi.stubEnv('LEGATE_MCP_REPIN', 'yes');
    await (await server.open({ pin: pinFile() }, 'changed')).close();
    expect(readFileSync(pinFile(), 'utf8')).toBe(pinned);
    vi.stubEnv('LEGATE_MCP_REPIN', '1');
    await (await server.open({ pin: pinFile() }, 'changed')).close();
    expect(readFileSync(pinFile(), 'utf8')).toContain('in Fahrenheit');
    // The option wins over the environment.
    await (await server.open({ pin: pinFile(), repin: false })).close();
    expect(readFileSync(pinFile(), 'utf8')).toContain('in Fahrenheit');
  });

  it('compares again after tools/list_changed: a tool changed mid-run stops the run before its next call', async () => {
    const { tools } = await server.open({ flags: weatherTrusted });
    const run = agent(tools, [
      reply.toolUse('weather', { city: 'Rome' }),
      reply.toolUse('mutate', {}),
      reply.toolUse('weather', { city: 'Oslo' }),
      reply.text('Done.'),
    ]).run('Go.');
    await expect(run).rejects.toMatchObject({
      code: 'mcp_tool_changed',
      file: undefined,
      changes: [{ tool: 'weather', path: 'description' }],
    });
    expect(calls().map((call) => call.name)).toEqual(['weather', 'mutate']);
  });
});

describe('a recorded run with MCP tools replays with no server', () => {
  const script = [
    reply.toolUse('weather', { city: 'Rome' }),
    reply.toolUse('send_email', { to: 'a@b.co', body: 'Sunny' }),
    reply.text('Done.'),
  ];

  async function record() {
    const file = join(server.tempDir(), 'run.yaml');
    const live = await server.open({ pin: pinFile(), flags: weatherTrusted });
    await runTrajectory({
      file,
      agent: (transport) => new Agent({ name: 'a', model: 'claude-haiku-5-5', tools: live.tools, transport }),
      input: 'Weather, then mail it.',
      mode: 'record',
      transport: () => new ScriptedTransport(script),
      report: false,
    });
    await live.close();
    return file;
  }

  it('serves every MCP tool from the recording: no server is started or called', async () => {
    const file = await record();
    const before = server.events().length;
    const pinned = await server.open({ pin: pinFile(), flags: weatherTrusted });
    const { result, served } = await runTrajectory({
      file,
      agent: (transport) => new Agent({ name: 'a', model: 'claude-haiku-5-5', tools: pinned.tools, transport }),
      mode: 'replay',
    });
    expect(result.toolCalls.map((call) => [call.outcome, call.output])).toEqual([
      ['ok', 'Sunny in Rome'],
      ['ok', 'Sent to a@b.co'],
    ]);
    expect(served?.map((call) => call.tool)).toEqual(['weather', 'send_email']);
    expect(server.events().slice(before)).toEqual([]);
  });

  it('runs an MCP tool live in replay when asked to (runTools.run)', async () => {
    const file = await record();
    const before = server.events().length;
    const pinned = await server.open({ pin: pinFile(), flags: weatherTrusted });
    const { served } = await runTrajectory({
      file,
      agent: (transport) => new Agent({ name: 'a', model: 'claude-haiku-5-5', tools: pinned.tools, transport }),
      mode: 'replay',
      runTools: { run: ['weather'] },
    });
    expect(served?.map((call) => call.tool)).toEqual(['send_email']);
    expect(server.events().slice(before)).toEqual([
      expect.objectContaining({ event: 'start' }),
      { event: 'call', name: 'weather', args: { city: 'Rome' } },
    ]);
  });
});
