import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replayTrajectory } from '../../src/assert/vitest.js';
import { createAssistant } from '../../examples/payments/agent.js';
import { scenarios } from '../../examples/scenarios.js';
import { loadTrajectory } from '../../src/index.js';
import { ATTRIBUTES } from '../../src/telemetry/attributeNames.js';
import { outline, spanTrees, useSpanRecorder } from '../support/spanRecorder.js';
import { useTempDir } from '../support/tempDir.js';

const { spans, reset } = useSpanRecorder();
const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const FILE = 'trajectories/zero-trust.yaml';
const CONTENT_NAMES: string[] = Object.values(ATTRIBUTES).flatMap((spec) => ('content' in spec ? [spec.name] : []));
const byName = (name: string) => spans().filter((span) => span.name === name);

/** Every string the conversation holds: the input, the model's text and tool inputs, the tools' results. */
function conversationTexts(): string[] {
  const trajectory = loadTrajectory(FILE);
  const texts = [trajectory.input as string, trajectory.request?.system as string];
  for (const turn of trajectory.turns) {
    for (const block of turn.response.content)
      if ('text' in block) texts.push(block.text as string);
      else if ('toolUse' in block) texts.push(...Object.values(block.toolUse.input as object).map(String));
    for (const result of turn.results ?? []) if (typeof result.content === 'string') texts.push(result.content);
  }
  return texts.filter((text) => text.length >= 8);
}

describe('the spans of a replayed run (zero-trust.yaml)', () => {
  it('are one invoke_agent span with a chat span per model call and an execute_tool span per call', async () => {
    await replayTrajectory(createAssistant, FILE);
    expect(outline(spanTrees(spans()))).toEqual([
      'invoke_agent assistant',
      '  chat claude-haiku-5-5',
      '  execute_tool fetch_page',
      '  chat claude-haiku-5-5',
      '  execute_tool send_payment',
      '  chat claude-haiku-5-5',
    ]);
    const [root] = spanTrees(spans());
    expect(root!.kind).toBe(SpanKind.INTERNAL);
    expect(root!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.agent.name': 'assistant',
      'gen_ai.request.model': 'claude-haiku-5-5',
      'gen_ai.usage.input_tokens': 935,
      'gen_ai.usage.output_tokens': 127,
      'legate.stop_reason': 'end_turn',
      'legate.turns': 3,
      'legate.tainted': true,
      'legate.taint.source': 'fetch_page',
    });
  });

  it('a chat span carries the request and the recorded response: id, model, finish reason, usage', async () => {
    await replayTrajectory(createAssistant, FILE);
    const chats = byName('chat claude-haiku-5-5');
    expect(chats.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats.map((span) => span.attributes['gen_ai.response.id'])).toEqual([
      'msg_scripted_1',
      'msg_scripted_2',
      'msg_scripted_3',
    ]);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-haiku-5-5',
      'gen_ai.request.max_tokens': 4096,
      'gen_ai.response.model': 'claude-haiku-5-5',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'gen_ai.usage.input_tokens': 194,
      'gen_ai.usage.output_tokens': 40,
      'legate.agent': 'assistant',
      'legate.turn': 1,
    });
  });

  it('the tool spans carry the recorded tool_use ids; the blocked call carries its rule and source', async () => {
    await replayTrajectory(createAssistant, FILE);
    const recorded = loadTrajectory(FILE).turns.flatMap((turn) =>
      turn.response.content.flatMap((block) => ('toolUse' in block ? [block.toolUse.id] : [])),
    );
    const tools = spans().filter((span) => span.name.startsWith('execute_tool '));
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id']).sort()).toEqual([...recorded].sort());
    const fetch = byName('execute_tool fetch_page')[0]!;
    expect(fetch.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'fetch_page',
      'gen_ai.tool.type': 'function',
      'legate.decision': 'run',
      'legate.outcome': 'ok',
    });
    const blocked = byName('execute_tool send_payment')[0]!;
    expect(blocked.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'toolu_s2_1',
      'legate.decision': 'blocked',
      'legate.outcome': 'blocked',
      'legate.rule': 'taint',
      'legate.source': 'fetch_page',
    });
    expect(blocked.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('record no content by default: no content attribute, no attribute holding text of the conversation', async () => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', '');
    await replayTrajectory(createAssistant, FILE);
    const values = spans().flatMap((span) => Object.entries(span.attributes));
    expect(values.length).toBeGreaterThan(40);
    expect(values.map(([name]) => name).filter((name) => CONTENT_NAMES.includes(name))).toEqual([]);
    const texts = conversationTexts();
    expect(texts.length).toBeGreaterThan(4);
    const leaks = values.filter(([, value]) => texts.some((text) => String(value).includes(text)));
    expect(leaks).toEqual([]);
  });

  it('record the content when the environment opts in (the standard variable set to true)', async () => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true');
    await replayTrajectory(createAssistant, FILE);
    const trajectory = loadTrajectory(FILE);
    const first = byName('chat claude-haiku-5-5')[0]!.attributes;
    expect(JSON.parse(first['gen_ai.system_instructions'] as string)).toEqual([
      { type: 'text', content: trajectory.request?.system },
    ]);
    expect(JSON.parse(first['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: trajectory.input }] },
    ]);
    expect(JSON.parse(first['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_use',
        parts: [
          { type: 'text', content: 'Let me read the invoice.' },
          {
            type: 'tool_call',
            id: 'toolu_s1_1',
            name: 'fetch_page',
            arguments: { url: 'https://example.com/invoice/42' },
          },
        ],
      },
    ]);
    const fetch = byName('execute_tool fetch_page')[0]!.attributes;
    expect(JSON.parse(fetch['gen_ai.tool.call.arguments'] as string)).toEqual({
      url: 'https://example.com/invoice/42',
    });
    expect(fetch['gen_ai.tool.call.result']).toBe(trajectory.turns[0]!.results![0]!.content);
  });

  it('are the same when the run is recorded and when its file is replayed (but for the run id)', async () => {
    const file = join(tempDir(), 'zero-trust.yaml');
    copyFileSync(FILE, file);
    const scenario = scenarios.find((s) => s.name === 'zero-trust')!;
    vi.stubEnv('LEGATE_MODE', 'record');
    await replayTrajectory(createAssistant, file, { transport: scenario.model, report: false });
    const recorded = spanTrees(spans(), ['gen_ai.conversation.id']);
    reset();
    vi.stubEnv('LEGATE_MODE', 'replay');
    await replayTrajectory(createAssistant, file);
    const replayed = spanTrees(spans(), ['gen_ai.conversation.id']);
    expect(outline(recorded)).toHaveLength(6);
    expect(replayed).toEqual(recorded);
  });
});
