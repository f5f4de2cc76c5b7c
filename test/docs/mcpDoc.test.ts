import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, reply, runTrajectory } from '../../src/index.js';
import { mcpTools } from '../../src/mcp/index.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';

// Runs docs/mcp.md's examples against the fixture MCP server (a real child process), their imports of
// 'legate' and 'legate/mcp' pointed at this repository's source and their files put in a folder of their own.
const root = resolve('.');
const folder = join(root, '.legate-mcp-doc');
const server = join(root, 'test/mcp/fixtures/client-stdio.mjs');
const pins = join(folder, 'mcp-pins.json');
const trajectory = join(folder, 'trajectories/forecast.yaml');
const snippets = readmeSnippets(readFileSync('docs/mcp.md', 'utf8'));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a snippet with `weather-server.mjs` standing for `serverPath`; returns what it printed. */
function runMcpSnippet(name: string, serverPath: string): Promise<unknown[][]> {
  const code = snippets
    .find((s) => s.name === name)!
    .code.replaceAll(`'weather-server.mjs'`, JSON.stringify(serverPath))
    .replaceAll(`'mcp-pins.json'`, JSON.stringify(pins))
    .replaceAll(`'trajectories/forecast.yaml'`, JSON.stringify(trajectory));
  return runSnippet(folder, name, code);
}

describe('docs/mcp.md', () => {
  it('runs its examples: tools from a server, pinned; then a replay that never starts the server', async () => {
    expect(snippets.map((s) => s.name)).toEqual(['mcp-tools', 'mcp-trust', 'mcp-replay', 'mcp-serve']);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });

    expect(await runMcpSnippet('mcp-tools', server)).toEqual([['Sunny in Paris']]);
    expect(JSON.parse(readFileSync(pins, 'utf8')).tools.map((tool: { name: string }) => tool.name)).toEqual([
      'weather',
    ]);

    // Recorded once against the server, with the pinned tools.
    const live = await mcpTools({ command: process.execPath, args: [server], pin: pins, stderr: 'ignore' });
    await runTrajectory({
      file: trajectory,
      agent: (transport) => new Agent({ name: 'forecaster', model: 'claude-sonnet-4-5', tools: live.tools, transport }),
      input: 'What is the weather in Paris?',
      mode: 'record',
      transport: () => new ScriptedTransport([reply.toolUse('weather', { city: 'Paris' }), reply.text('Sunny.')]),
      report: false,
    });
    await live.close();

    // The replay is given a server that does not exist: starting it would fail the call, and the replay with it.
    const absent = join(folder, 'no-such-server.mjs');
    expect(existsSync(absent)).toBe(false);
    expect(await runMcpSnippet('mcp-replay', absent)).toEqual([[['Sunny in Paris'], ['weather']]]);
  });

  it('marks one tool of the filesystem server trusted, in one line; the others stay untrusted', async () => {
    mkdirSync(join(folder, 'reports'), { recursive: true });
    writeFileSync(join(folder, 'reports', 'q3.txt'), 'Q3 revenue rose.');
    // The official filesystem server, installed (a devDependency) where the snippet has npx fetch it.
    const fixture = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    const snippet = snippets.find((s) => s.name === 'mcp-trust')!.code;
    const npx = "command: 'npx',\n  args: ['-y', '@modelcontextprotocol/server-filesystem', 'reports'],";
    expect(snippet).toContain(npx);
    const code = snippet.replace(
      npx,
      `command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([fixture, join(folder, 'reports')])},` +
        " stderr: 'ignore',",
    );
    mkdirSync(folder, { recursive: true });
    expect(await runSnippet(folder, 'mcp-trust', code)).toEqual([
      ['read_text_file', { untrusted: false, privileged: false }],
      ['write_file', { untrusted: true, privileged: true }],
    ]);
  });
});
