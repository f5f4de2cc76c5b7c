/**
 * Blocks legate does not type (MCP connector blocks, compaction, fallback: real captures) in a
 * run: the run finishes, the next request sends them back unchanged, and the recording replays.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  runTrajectory,
  type ModelResponse,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

const body = (name: string): ModelResponse =>
  JSON.parse(readFileSync(`test/fixtures/api-captures/${name}.json`, 'utf8')).response.body as ModelResponse;

/** The capture's blocks, then a call of the local tool: the run goes on to another turn. */
const thenCall = (name: string, id: string): ModelResponse => ({
  ...body(name),
  content: [...body(name).content, { type: 'tool_use', id, name: 'note', input: { text: name } }],
  stop_reason: 'tool_use',
});

const note = defineTool({
  name: 'note',
  description: 'Notes a line.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  run: () => 'noted',
});
const agent = (transport: Transport) => new Agent({ name: 'a', model: 'claude-sonnet-4-5', tools: [note], transport });

describe('a run whose responses hold blocks legate does not type', () => {
  it('finishes, sends every such block back as it came, and replays from its recording', async () => {
    const script = () => [
      thenCall('ai-sdk--mcp-tool-use', 'toolu_m1'),
      thenCall('ai-sdk--fallback-block', 'toolu_m2'),
      body('pydantic-ai--compaction'),
    ];
    const model = new ScriptedTransport(script());
    const file = join(tempDir(), 'blocks.yaml');
    const { result } = await runTrajectory({ file, agent, input: 'Go.', mode: 'record', transport: () => model });
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls.map((call) => call.outcome)).toEqual(['ok', 'ok']);
    // Each later request holds the earlier responses' blocks exactly as the API sent them.
    const assistantTurns = model.requests[2]!.messages.filter((message) => message.role === 'assistant');
    expect(assistantTurns.map((message) => message.content)).toStrictEqual(
      script()
        .slice(0, 2)
        .map((response) => response.content),
    );
    expect(readFileSync(file, 'utf8')).toContain('- block:\n');

    const replayed = await runTrajectory({ file, agent, mode: 'replay' });
    expect(replayed.result.responses).toStrictEqual(result.responses);
    expect(replayed.result.messages).toStrictEqual(result.messages);
  });
});
