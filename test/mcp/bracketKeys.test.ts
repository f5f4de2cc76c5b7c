import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, reply } from '../../src/index.js';
import { propertyKeyRefusal } from '../support/messagesApiRules.js';
import { useFixtureServer } from './mcpServerFixture.js';

// An MCP server whose tool takes `filter[name]` (the App Store Connect MCP server's list-apps, run as a real
// process through the official SDK: fixtures/bracket-keys-stdio.mjs): the model is shown names the Messages API
// allows, and the server receives the names it declared.

const BRACKET_KEYS = fileURLToPath(new URL('./fixtures/bracket-keys-stdio.mjs', import.meta.url));
const server = useFixtureServer();

describe('mcpTools on a tool whose argument names have brackets', () => {
  it('shows the model safe names, and the server receives its own names', async () => {
    const { tools } = await server.open({ args: [BRACKET_KEYS] });
    const [listApps] = tools;
    expect(Object.keys(listApps!.inputSchema.properties as object)).toEqual([
      'filter_bundleId',
      'filter_name',
      'filter_sku',
      'filter_id',
    ]);
    expect(listApps!.wireNames).toEqual({
      filter_bundleId: 'filter[bundleId]',
      filter_name: 'filter[name]',
      filter_sku: 'filter[sku]',
      filter_id: 'filter[id]',
    });

    const transport = new ScriptedTransport([
      reply.toolUse('list-apps', { filter_name: 'Legate', filter_sku: ['A1', 'B2'] }),
      reply.text('None.'),
    ]);
    const agent = new Agent({ name: 'asc', model: 'claude-haiku-5-5', tools, transport });
    const result = await agent.run('Which apps are named Legate?');

    expect(transport.requests.map((request) => propertyKeyRefusal(request))).toEqual([undefined, undefined]);
    expect(result.toolCalls.map((call) => [call.outcome, call.input])).toEqual([
      ['ok', { filter_name: 'Legate', filter_sku: ['A1', 'B2'] }],
    ]);
    expect(server.events().filter((event) => event.event === 'call')).toEqual([
      { event: 'call', name: 'list-apps', args: { 'filter[name]': 'Legate', 'filter[sku]': ['A1', 'B2'] } },
    ]);
  });
});
