import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import '../../src/assert/vitest.js';
import { useMockServer } from '../support/mockServer.js';
import {
  Agent,
  AnthropicTransport,
  assertThat,
  defineTool,
  loadTrajectory,
  runTrajectory,
  serializeTrajectory,
  type AgentEvent,
  type Transport,
} from '../../src/index.js';
import {
  messageEnd,
  messageJson,
  messageStart,
  messagesEndpoint,
  sseResponse,
  textBlock,
  toolUseBlock,
} from '../support/anthropicApi.js';
import { conversationBreach } from '../support/apiConversation.js';
import { captureIo } from '../support/captureIo.js';
import { useSpanRecorder } from '../support/spanRecorder.js';
import { useTempDir } from '../support/tempDir.js';

/**
 * A stop reason the API adds after a release (as `model_context_window_exceeded` was added) is
 * kept as sent, served here through the real `@anthropic-ai/sdk` over HTTP. The name is invented:
 * by construction no real response carries a stop reason this release does not know.
 */
const ADDED_LATER = 'tool_budget_exhausted';

const server = useMockServer();
const tempDir = useTempDir();
const { spans } = useSpanRecorder();

const live = (stream: boolean) =>
  new AnthropicTransport({ client: new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 }), stream });

const lookup = () => {
  const run = vi.fn(() => 'A-1001 has shipped.');
  const tool = defineTool({
    name: 'lookup_order',
    description: 'Finds an order by id.',
    input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
    run,
  });
  return { tool, run };
};

const agentWith = (transport: Transport, tool = lookup().tool) =>
  new Agent({ name: 'desk', model: 'claude-sonnet-5-5', tools: [tool], transport });

/** A response that says something, asks for a tool, and stops for a reason this release does not know. */
const answers = {
  stream: () =>
    sseResponse([
      messageStart({ id: 'msg_later_1' }),
      ...textBlock(0, ['Let me ', 'look.']),
      ...toolUseBlock(1, 'toolu_later_1', 'lookup_order', ['{"orderId"', ': "A-1001"}']),
      ...messageEnd(ADDED_LATER, 21),
    ]),
  json: () =>
    HttpResponse.json({
      ...messageJson(
        [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_later_1', name: 'lookup_order', input: { orderId: 'A-1001' } },
        ],
        ADDED_LATER,
      ),
      id: 'msg_later_1',
    }),
};

describe('a stop reason the API added after this release', () => {
  it.each([
    ['streamed', true],
    ['as JSON', false],
  ] as const)('ends the run with it, as sent, %s through the SDK; its tool call does not run', async (_, stream) => {
    const endpoint = messagesEndpoint([
      stream ? answers.stream : answers.json,
      stream
        ? () => sseResponse([messageStart(), ...textBlock(0, ['Shipped.']), ...messageEnd('end_turn', 2)])
        : () => HttpResponse.json(messageJson([{ type: 'text', text: 'Shipped.' }], 'end_turn')),
    ]);
    server.use(endpoint.handler);
    const { tool, run } = lookup();
    const agent = agentWith(live(stream), tool);
    const events: AgentEvent[] = [];
    const result = await agent.run('Where is A-1001?', { onEvent: (event) => events.push(event) });

    expect(result.stopReason).toBe(ADDED_LATER);
    expect(result.responses[0]!.stop_reason).toBe(ADDED_LATER);
    expect(result.text).toBe('Let me look.');
    expect(endpoint.calls()).toBe(1);
    expect(run).not.toHaveBeenCalled();
    expect(result.toolCalls).toEqual([
      expect.objectContaining({ id: 'toolu_later_1', outcome: 'incomplete', input: { orderId: 'A-1001' } }),
    ]);
    expect(result.toolCalls[0]!.output).toBe(
      `Not run: your response stopped (stop_reason ${ADDED_LATER}) without asking for its tool calls to run, ` +
        'so none of its tool calls ran. Call the tool again if it is still needed.',
    );
    expect(events).toContainEqual(expect.objectContaining({ type: 'model_responded', stopReason: ADDED_LATER }));
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'run_finished', stopReason: ADDED_LATER }));
    expect(result).toHaveStopped(ADDED_LATER);
    expect(result).not.toBeComplete();
    assertThat(result).stopped(ADDED_LATER).not.complete();
    const attributes = (name: string) => spans().find((span) => span.name.startsWith(name))!.attributes;
    expect(attributes('chat')['gen_ai.response.finish_reasons']).toEqual([ADDED_LATER]);
    expect(attributes('invoke_agent')['legate.stop_reason']).toBe(ADDED_LATER);

    // The call stays in the conversation, answered: continuing it sends a request the API accepts.
    const next = await agent.run('And now?', { history: result.messages });
    expect(next.text).toBe('Shipped.');
    expect(conversationBreach(endpoint.bodies[1] as never)).toBeUndefined();
  });

  it.each([
    [ADDED_LATER, ADDED_LATER],
    ['model_context_window_exceeded', 'context_window_exceeded'],
  ])('%s is recorded as sent, and the recording replays to the same run offline', async (apiReason, runReason) => {
    server.use(
      messagesEndpoint([
        () =>
          sseResponse([
            messageStart({ id: 'msg_later_1' }),
            ...textBlock(0, ['Let me ', 'look.']),
            ...toolUseBlock(1, 'toolu_later_1', 'lookup_order', ['{"orderId"', ': "A-1001"}']),
            ...messageEnd(apiReason, 21),
          ]),
      ]).handler,
    );
    const file = join(tempDir(), 'later.yaml');
    const { tool, run } = lookup();
    const agent = (transport: Transport) => agentWith(transport, tool);

    const recorded = await runTrajectory({
      file,
      config: false,
      agent,
      input: 'Where is A-1001?',
      mode: 'record',
      transport: () => live(true),
      report: false,
    });
    expect(recorded.result.stopReason).toBe(runReason);
    const text = readFileSync(file, 'utf8');
    const trajectory = loadTrajectory(file);
    expect(trajectory.turns[0]!.response.stopReason).toBe(apiReason);
    expect(trajectory.turns[0]!.results).toEqual([
      expect.objectContaining({ id: 'toolu_later_1', outcome: 'incomplete' }),
    ]);
    expect(trajectory.summary.stopReason).toBe(runReason);
    expect(trajectory).toHaveStopped(runReason);
    expect(serializeTrajectory(trajectory)).toBe(text);
    const io = captureIo();
    expect(await main(['show', file], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain(`${apiReason} · `);
    expect(io.stdout.join('\n')).toContain(`${runReason} · 1 turn`);

    server.resetHandlers(); // nothing answers HTTP now: the replay must not need it
    const replayed = await runTrajectory({ file, config: false, agent, mode: 'replay' });
    expect(replayed.result.stopReason).toBe(runReason);
    expect(replayed.result.responses).toEqual(recorded.result.responses);
    expect(replayed.result.toolCalls).toEqual(recorded.result.toolCalls);
    expect(replayed.result.messages).toEqual(recorded.result.messages);
    expect(run).not.toHaveBeenCalled();
  });
});
