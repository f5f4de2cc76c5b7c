// A tool made by another copy of legate (src/ and dist/ of this repository here; two installed versions in a user's
// project) is a legate tool to every check of one (src/tools/toolBrand.ts): serveMcp, an Agent, legate fuzz.
// (Here, not in test/tools: it needs the suite's build of dist/, which the mutation run's config does not make.)
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, UsageError, defineTool, isDefinedTool, reply } from '../../src/index.js';
import { serveMcp } from '../../src/mcp/index.js';
import { legateVersion } from '../../src/version.js';
import { builtLegate } from '../support/builtPackage.js';

/** legate as `npm run build` made it from today's source: another copy, with module state of its own. */
async function builtCopy(): Promise<typeof import('../../src/index.js')> {
  await builtLegate();
  return import(resolve('dist/src/index.js'));
}

async function echoFromDist() {
  const dist = await builtCopy();
  expect(dist.defineTool).not.toBe(defineTool);
  return dist.defineTool({
    name: 'echo',
    description: 'Echoes its text.',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    run: ({ text }: { text: string }) => text,
  });
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const closable of open.splice(0).reverse()) await closable.close();
});

describe('a tool made by another copy of legate', () => {
  it("is served by this copy's serveMcp, and answers the official client", async () => {
    const echo = await echoFromDist();
    const serving = await serveMcp({ tools: [echo], transport: 'http' });
    open.push(serving);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url!)));
    open.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it("is run by this copy's Agent", async () => {
    const echo = await echoFromDist();
    const agent = new Agent({
      name: 'a',
      model: 'claude-haiku-5-5',
      tools: [echo],
      transport: new ScriptedTransport([reply.toolUse('echo', { text: 'hi' }), reply.text('Done.')]),
    });
    const result = await agent.run('Echo hi.');
    expect(result.toolCalls.map((call) => [call.name, call.outcome, call.output])).toEqual([['echo', 'ok', 'hi']]);
  });

  it('of a tool format this copy cannot run is refused, saying so and what to do', async () => {
    const echo = await echoFromDist();
    // A later legate whose tools have another shape: its brand says so.
    const later = Object.defineProperty({ ...echo }, Symbol.for('legate.tool'), {
      value: { format: 2, legate: '9.0.0' },
    });
    const said =
      "tools[0] ('echo') is a tool made with defineTool by another copy of legate (9.0.0, tool format 2), which " +
      `this legate (${legateVersion()}, tool format 1) cannot run. Make every tool with the legate that runs it: ` +
      'install one version (npm ls legate shows the copies installed, and which package brings each).';
    await expect(serveMcp({ tools: [later] })).rejects.toThrow(
      expect.objectContaining({ name: UsageError.name, code: 'invalid_serve_option', message: `serveMcp: ${said}` }),
    );
    const transport = new ScriptedTransport([]);
    expect(() => new Agent({ name: 'a', model: 'm', tools: [later as never], transport })).toThrow(said);
  });
});

describe('isDefinedTool', () => {
  it('is false for anything defineTool did not make: values, copies of a tool, objects shaped like one', () => {
    const tool = defineTool({ name: 't', description: 'A tool.', input: { type: 'object' }, run: () => 'ok' });
    expect(isDefinedTool(tool)).toBe(true);
    const copies = [{ ...tool }, Object.create(tool), Object.assign({}, tool), structuredClone({ name: tool.name })];
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.constantFrom(...copies)), (value) => {
        expect(isDefinedTool(value)).toBe(false);
      }),
    );
  });
});
