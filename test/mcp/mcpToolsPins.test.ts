import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, ScriptedTransport, reply, runTrajectory, type AnyTool, type ScriptedReply } from '../../src/index.js';
import { McpPinError } from '../../src/mcp/index.js';
import { useFixtureServer } from './mcpServerFixture.js';

const server = useFixtureServer();
afterEach(() => vi.unstubAllEnvs());
const pinFile = () => join(server.tempDir(), 'mcp-pins.json');
const starts = () => server.events().filter((event) => event.event === 'start').length;
const calls = () => server.events().filter((event) => event.event === 'call');

function agent(tools: AnyTool[], script: ScriptedReply[]) {
  return new Agent({ name: 'a', model: 'claude-haiku-5-5', tools, transport: new ScriptedTransport(script) });
}

/**
 * The fixture's weather reads a closed world, which does not make its results trusted: marked trusted here so that
 * the writes after it run (a tainted run refuses them: test/mcp/mcpHintsTrust.test.ts).
 */
const weatherTrusted = { weather: { untrusted: false } };

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
