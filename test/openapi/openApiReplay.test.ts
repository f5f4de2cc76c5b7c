import { join } from 'node:path';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import {
  Agent,
  ScriptedTransport,
  loadTrajectory,
  reply,
  runTrajectory,
  type AnyTool,
  type Transport,
} from '../../src/index.js';
import { openApiTools } from '../../src/openapi/index.js';
import { useMockServer } from '../support/mockServer.js';
import { openApiFixture, receiveRequests } from '../support/openApiCalls.js';
import { useTempDir } from '../support/tempDir.js';

/**
 * A run over the Petstore's tools recorded against the API (msw), then replayed with the API gone: every
 * HTTP call is answered from the recording, reads and writes alike, because the tools are remote.
 */
const server = useMockServer();
const tempDir = useTempDir();
const BASE = 'https://petstore.test/api/v3';

const petstoreAgent = (tools: AnyTool[]) => (transport: Transport) =>
  new Agent({ name: 'petstore', model: 'claude-haiku-5-5', tools, transport, maxTurns: 5 });

const pet = { id: 12, name: 'Rex', photoUrls: [], status: 'available' };
const script = [
  reply.toolUse('add_pet', { body: pet }),
  reply.toolUse('get_pet_by_id', { petId: 12 }),
  reply.toolUse('delete_pet', { petId: 12 }),
  reply.text('Rex is in the store.'),
];

describe('a recorded OpenAPI run', () => {
  it('replays with every HTTP call served from the recording, none sent', async () => {
    const { tools } = await openApiTools(openApiFixture('petstore-3.0.yaml'), { baseUrl: BASE });
    expect(tools.every((tool) => tool.remote)).toBe(true);
    const file = join(tempDir(), 'petstore.yaml');

    const live = receiveRequests(server, BASE, ({ method }) =>
      method === 'POST' ? HttpResponse.json(pet) : HttpResponse.json({ ...pet, note: 'live answer' }),
    );
    const recorded = await runTrajectory({
      file,
      agent: petstoreAgent(tools),
      input: 'Add Rex, then show him.',
      mode: 'record',
      transport: () => new ScriptedTransport(script),
      report: false,
    });
    expect(live.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(['POST /api/v3/pet', 'GET /api/v3/pet/12']);
    // The delete came after a read: blocked by the guard, never sent.
    expect(recorded.result).toHaveBlocked('delete_pet', { rule: 'taint', source: 'get_pet_by_id' });
    const outputs = recorded.result.toolCalls.map((call) => [call.name, call.outcome, call.output]);
    expect(outputs.slice(0, 2)).toEqual([
      ['add_pet', 'ok', JSON.stringify(pet)],
      ['get_pet_by_id', 'ok', JSON.stringify({ ...pet, note: 'live answer' })],
    ]);
    expect(loadTrajectory(file).turns).toHaveLength(4);

    // The API is gone: a request would fail the call (a network error), and is counted.
    server.resetHandlers();
    const sent = receiveRequests(server, BASE, () => HttpResponse.error());
    const replayed = await runTrajectory({ file, agent: petstoreAgent(tools), mode: 'replay' });
    expect(sent).toEqual([]);
    expect(replayed.served!.map((call) => call.tool)).toEqual(['add_pet', 'get_pet_by_id']);
    expect(replayed.result.toolCalls.map((call) => [call.name, call.outcome, call.output])).toEqual(outputs);
    expect(replayed.result).toHaveBlocked('delete_pet', { rule: 'taint', source: 'get_pet_by_id' });
    expect(replayed.result.text).toBe('Rex is in the store.');
  });
});
