/**
 * A run's usage: every counter the API reports, summed over a multi-turn run (server tool
 * requests, the cache-creation split, thinking tokens), in the AgentResult and in the file's
 * summary; each response's usage kept as reported, and the same again on replay.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  loadTrajectory,
  runTrajectory,
  type ModelResponse,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** A real response (its blocks and usage as captured), made to ask for a local tool call after them. */
function captured(name: string, call?: string): ModelResponse {
  const body = JSON.parse(readFileSync(`test/fixtures/api-captures/${name}.json`, 'utf8')).response.body;
  if (call === undefined) return body as ModelResponse;
  const toolUse = { type: 'tool_use', id: call, name: 'note', input: { text: name } };
  return { ...body, content: [...body.content, toolUse], stop_reason: 'tool_use' } as ModelResponse;
}

const responses = () => [
  captured('pydantic-ai--web-search', 'toolu_w1'),
  captured('pydantic-ai--web-fetch', 'toolu_w2'),
  captured('pydantic-ai--thinking-adaptive-opus-5', 'toolu_w3'),
  captured('pydantic-ai--prompt-cache-read'),
];

const note = defineTool({
  name: 'note',
  description: 'Notes a line.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  run: () => 'noted',
});
const researcher = (transport: Transport) =>
  new Agent({ name: 'researcher', model: 'claude-sonnet-4-5', tools: [note], transport });

// By hand, from the four captures' usage.
const totals = {
  inputTokens: 8984 + 7262 + 13 + 3,
  outputTokens: 520 + 171 + 44 + 33,
  cacheCreationInputTokens: 418,
  cacheReadInputTokens: 1111,
  cacheCreation5mInputTokens: 418,
  cacheCreation1hInputTokens: 0,
  webSearchRequests: 1,
  webFetchRequests: 1,
  thinkingTokens: 33,
};

describe("a run's usage", () => {
  it('sums every counter over the turns, records each turn as reported, and replays the same', async () => {
    const file = join(tempDir(), 'research.yaml');
    const recorded = await runTrajectory({
      file,
      agent: researcher,
      input: 'Look it up.',
      mode: 'record',
      transport: () => new ScriptedTransport(responses()),
    });
    expect(recorded.result.turns).toBe(4);
    expect(recorded.result.usage).toStrictEqual(totals);

    const trajectory = await loadTrajectory(file);
    expect(trajectory.summary.usage).toStrictEqual({
      input: totals.inputTokens,
      output: totals.outputTokens,
      cacheCreation: 418,
      cacheRead: 1111,
      cacheCreation5m: 418,
      webSearchRequests: 1,
      webFetchRequests: 1,
      thinking: 33,
    });
    expect(trajectory.turns.map((turn) => turn.response.usage)).toStrictEqual(responses().map((r) => r.usage));
    expect(readFileSync(file, 'utf8')).toContain(
      'usage: { input: 16262, output: 768, cacheCreation: 418, cacheRead: 1111, cacheCreation5m: 418, ' +
        'webSearchRequests: 1, webFetchRequests: 1, thinking: 33 }',
    );

    const replayed = await runTrajectory({ file, agent: researcher, mode: 'replay' });
    expect(replayed.result.usage).toStrictEqual(totals);
    expect(replayed.result.responses.map((r) => r.usage)).toStrictEqual(responses().map((r) => r.usage));
  });

  it("adds a sub-agent's counters to its caller's, every one of them", async () => {
    const inner = new Agent({
      name: 'searcher',
      model: 'claude-sonnet-4-5',
      transport: new ScriptedTransport([captured('pydantic-ai--web-search')]),
    });
    const outer = new Agent({
      name: 'lead',
      model: 'claude-sonnet-4-5',
      tools: [inner.asTool('searcher', 'Searches the web.')],
      transport: new ScriptedTransport([
        {
          content: [{ type: 'tool_use', name: 'searcher', input: { request: 'Find it.' } }],
          stopReason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 2 },
        },
        {
          content: [{ type: 'text', text: 'Found.' }],
          stopReason: 'end_turn',
          usage: { input_tokens: 20, output_tokens: 3 },
        },
      ]),
    });
    const result = await outer.run('Search.');
    expect(result.usage).toStrictEqual({
      ...Object.fromEntries(Object.keys(totals).map((counter) => [counter, 0])),
      inputTokens: 10 + 20 + 8984,
      outputTokens: 2 + 3 + 520,
      webSearchRequests: 1,
    });
  });
});
