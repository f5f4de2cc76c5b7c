import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  TrajectoryFormatError,
  defineTool,
  loadTrajectory,
  parseTrajectory,
  reply,
  runTrajectory,
  serializeTrajectory,
  type ModelResponse,
  type Transport,
  type Trajectory,
} from '../../src/index.js';
import { jsonText } from '../../src/json/jsonText.js';
import { MAX_DOCUMENT_DEPTH, MAX_YAML_VALUE_DEPTH } from '../../src/trajectory/limits.js';
import { caught } from '../support/caught.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** `{ a: { a: ... 'leaf' } }`, `depth` objects deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value as Record<string, unknown>;
}

const store = defineTool({
  name: 'store',
  description: 'Stores a document.',
  input: { type: 'object', properties: { a: { type: 'object' } } },
  run: () => 'stored',
});
const agent = (transport: Transport) =>
  new Agent({ name: 'archivist', model: 'claude-haiku-5-5', tools: [store], transport });

/** A model that answers from a list, without cloning what it sends (a clone of a value 10,000 deep overflows). */
function modelSending(responses: ((call: number) => ModelResponse)[]): () => Transport {
  return () => {
    let call = 0;
    return { send: async () => responses[call++]!(call) };
  };
}
const toolUse = (input: unknown) => (): ModelResponse => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-5-5',
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 10 },
  content: [{ type: 'tool_use', id: 'toolu_1', name: 'store', input: input as Record<string, unknown> }],
});
const done = (): ModelResponse => ({
  id: 'msg_2',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-5-5',
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 20, output_tokens: 5 },
  content: [{ type: 'text', text: 'Stored.' }],
});

function recordedInput(trajectory: Trajectory): unknown {
  return (trajectory.turns[0]!.response.content[0] as { toolUse: { input: unknown } }).toolUse.input;
}

describe('a tool input nested deeper than YAML is written', () => {
  it('records a run whose model sent an input 1,000 deep, and replays it', async () => {
    const file = join(tempDir(), 'deep.yaml');
    const input = nested(1000);
    const recorded = await runTrajectory({
      file,
      agent,
      input: 'Store it.',
      mode: 'record',
      transport: () => new ScriptedTransport([reply.toolUse('store', input), reply.text('Stored.')]),
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('inputJson: ');
    const read = loadTrajectory(file);
    expect(jsonText(recordedInput(read))).toBe(JSON.stringify(input));
    expect(serializeTrajectory(read)).toBe(text);
    const replayed = await runTrajectory({ file, agent, mode: 'replay' });
    expect(replayed.result.stopReason).toBe(recorded.result.stopReason);
    expect(replayed.result.text).toBe(recorded.result.text);
  });

  it(
    'records a run whose model sent an input 10,000 deep: the file is written, reads back the same value, and ' +
      'replays',
    async () => {
      const file = join(tempDir(), 'deeper.yaml');
      const input = nested(10_000);
      const recorded = await runTrajectory({
        file,
        agent,
        input: 'Store it.',
        mode: 'record',
        transport: modelSending([toolUse(input), done]),
      });
      const read = loadTrajectory(file);
      expect(jsonText(recordedInput(read))).toBe(jsonText(input));
      expect(serializeTrajectory(read)).toBe(readFileSync(file, 'utf8'));
      const replayed = await runTrajectory({ file, agent, mode: 'replay' });
      expect(replayed.result.stopReason).toBe(recorded.result.stopReason);
      expect(replayed.result.toolCalls.map((call) => call.outcome)).toEqual(
        recorded.result.toolCalls.map((call) => call.outcome),
      );
    },
  );

  it('writes a value as YAML up to the limit, and as JSON text one level past it', () => {
    const base = parseTrajectory(readFileSync('trajectories/tool-loop.yaml', 'utf8'));
    for (const [depth, field] of [
      [MAX_YAML_VALUE_DEPTH, 'input:'],
      [MAX_YAML_VALUE_DEPTH + 1, 'inputJson:'],
    ] as const) {
      const trajectory = structuredClone(base);
      (trajectory.turns[0]!.response.content[1] as { toolUse: { input: unknown } }).toolUse.input = nested(depth);
      const text = serializeTrajectory(trajectory);
      expect(text).toContain(`            ${field}`);
      expect(parseTrajectory(text)).toEqual(trajectory);
    }
  });

  it('writes deep server blocks, citations, run input and result blocks the same way', () => {
    const base = parseTrajectory(readFileSync('trajectories/tool-loop.yaml', 'utf8'));
    const trajectory = structuredClone(base);
    const deep = nested(500);
    trajectory.input = [{ type: 'text', text: 'hi', extra: deep } as never];
    trajectory.turns[0]!.response.content = [
      { text: 'x', citations: [deep] },
      { server: { type: 'server_tool_use', id: 's1', name: 'web_search', input: deep } as never },
    ];
    trajectory.turns[0]!.results = [
      {
        id: 'toolu_1',
        tool: 'lookup_order',
        outcome: 'ok',
        content: [{ type: 'text', text: 'x', extra: deep } as never],
      },
    ];
    const text = serializeTrajectory(trajectory);
    for (const field of ['input', 'citations', 'server', 'content']) expect(text).toContain(`${field}Json: `);
    expect(jsonText(parseTrajectory(text))).toBe(jsonText(trajectory));
  });

  it('refuses YAML nested deeper than the format allows, where it goes too deep, without a stack overflow', () => {
    const base = readFileSync('trajectories/tool-loop.yaml', 'utf8');
    for (const depth of [MAX_DOCUMENT_DEPTH, 10_000]) {
      const edited = base.replace('orderId: A-1001', `orderId: ${'['.repeat(depth)}${']'.repeat(depth)}`);
      const error = caught(() => parseTrajectory(edited, 'deep.yaml'), TrajectoryFormatError);
      expect(error.problem).toContain(`deeper than the ${MAX_DOCUMENT_DEPTH} levels`);
      expect(error.line).toBe(base.split('\n').findIndex((line) => line.includes('orderId: A-1001')) + 1);
    }
  });

  it('refuses inputJson that is not JSON, and a toolUse with both input and inputJson', () => {
    const base = readFileSync('trajectories/tool-loop.yaml', 'utf8');
    const broken = caught(
      () =>
        parseTrajectory(
          base.replace('            input:\n              orderId: A-1001', `            inputJson: '{"a":'`),
          'j.yaml',
        ),
      TrajectoryFormatError,
    );
    expect(broken.problem).toMatch(
      /^turns\[0\]\.response\.content\[1\]\.toolUse\.inputJson should be JSON text, but it is not: /,
    );
    expect(broken.line).toBeDefined();
    const both = caught(
      () =>
        parseTrajectory(
          base.replace('            input:\n', `            inputJson: '{}'\n            input:\n`),
          'j.yaml',
        ),
      TrajectoryFormatError,
    );
    expect(both.problem).toContain(`has both 'input' and 'inputJson'`);
  });
});
