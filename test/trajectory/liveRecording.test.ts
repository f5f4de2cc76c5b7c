import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import { createOrderDesk } from '../../examples/orders/agent.js';
import { AnthropicTransport, loadTrajectory, runTrajectory } from '../../src/index.js';
import {
  messageEnd,
  messageStart,
  messagesEndpoint,
  ping,
  sseResponse,
  textBlock,
  thinkingBlock,
  toolUseBlock,
} from '../support/anthropicApi.js';
import { useTempDir } from '../support/tempDir.js';

const server = useMockServer();
const tempDir = useTempDir();

describe('recording through the Anthropic transport', () => {
  it('stores what the SDK delivered from an SSE stream, and replays it offline to the same result', async () => {
    const signature = 'EqQBCkYIBxgCKkDk+/Zx9Qp8==';
    const endpoint = messagesEndpoint([
      () =>
        sseResponse(
          [
            messageStart({ id: 'msg_live_1', model: 'claude-haiku-5-5', inputTokens: 310 }),
            ping,
            ...thinkingBlock(0, ['The customer ', 'wants A-1001.'], signature),
            ...textBlock(1, ['Let me ', 'check.']),
            ...toolUseBlock(2, 'toolu_live_1', 'lookup_order', ['{"orderId"', ': "A-1001"}']),
            ...messageEnd('tool_use', 52),
          ],
          { chunkSize: 23 },
        ),
      () =>
        sseResponse([
          messageStart({ id: 'msg_live_2', model: 'claude-haiku-5-5', inputTokens: 420 }),
          ...textBlock(0, ['It has shipped.']),
          ...messageEnd('end_turn', 9),
        ]),
    ]);
    server.use(endpoint.handler);
    const file = join(tempDir(), 'live.yaml');
    const live = () => new AnthropicTransport({ client: new Anthropic({ apiKey: 'sk-ant-test-not-a-real-key' }) });

    const recorded = await runTrajectory({
      file,
      agent: createOrderDesk,
      input: 'Where is A-1001?',
      mode: 'record',
      transport: live,
    });
    const trajectory = loadTrajectory(file);
    expect(trajectory.turns[0]!.response).toMatchObject({
      id: 'msg_live_1',
      stopReason: 'tool_use',
      // As the SDK delivered it, zero cache counters included.
      usage: { input_tokens: 310, output_tokens: 52, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      content: [
        { thinking: 'The customer wants A-1001.', signature },
        { text: 'Let me check.' },
        { toolUse: { id: 'toolu_live_1', name: 'lookup_order', input: { orderId: 'A-1001' } } },
      ],
    });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('req_test'); // the request-id header msw sent
    expect(text).not.toContain('sk-ant-test');

    server.resetHandlers(); // nothing answers HTTP now: the replay must not need it
    const replayed = await runTrajectory({ file, agent: createOrderDesk, mode: 'replay' });
    expect(replayed.result.text).toBe(recorded.result.text);
    expect(replayed.result.toolCalls).toEqual(recorded.result.toolCalls);
    expect(replayed.result.usage).toEqual(recorded.result.usage);
    expect(replayed.result.messages).toEqual(recorded.result.messages);
  });
});
