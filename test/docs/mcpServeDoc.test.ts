import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { McpServing } from '../../src/mcp/index.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { pointedAtSource } from '../support/snippetSource.js';

// Runs docs/mcp.md's example, its imports of 'legate' and 'legate/mcp' pointed at this repository's source,
// and holds the refusal the doc quotes to what a client gets.
const root = resolve('.');
const folder = join(root, '.legate-mcp-serve-doc');
const doc = readFileSync('docs/mcp.md', 'utf8');
const snippets = readmeSnippets(doc);

let serving: McpServing | undefined;
let client: Client | undefined;

afterAll(async () => {
  await client?.close();
  await serving?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('docs/mcp.md', () => {
  it('runs its example: a server a client lists, calls, and is refused by in the words the doc quotes', async () => {
    expect(snippets.map((s) => s.name)).toContain('mcp-serve');
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'mcp-serve.ts');
    writeFileSync(file, pointedAtSource(snippets.find((s) => s.name === 'mcp-serve')!.code));
    serving = ((await import(file)) as { serving: McpServing }).serving;
    vi.restoreAllMocks();
    expect(printed).toEqual([[serving.url]]);
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    client = new Client({ name: 'doc', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url!)));
    const [listed] = (await client.listTools()).tools;
    expect(listed).toMatchObject({ name: 'forecast', title: 'Forecast', outputSchema: { type: 'object' } });
    const ok = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(ok.structuredContent).toEqual({ city: 'Oslo', celsius: 3 });

    const quoted = /word for word:\n\n`(\{.*\})`/.exec(doc)?.[1];
    const refused = await client.callTool({ name: 'forecast', arguments: { city: 'X' } });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([{ type: 'text', text: quoted }]);
  });
});
