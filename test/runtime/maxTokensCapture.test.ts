import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import { Agent, AnthropicTransport, defineTool, type MessagesRequest } from '../../src/index.js';
import { API_URL, messageEnd, messageStart, sseResponse, textBlock } from '../support/anthropicApi.js';
import { conversationBreach } from '../support/apiConversation.js';

/**
 * A real stream cut off by max_tokens inside a tool_use (the SDK's own fixture:
 * test/fixtures/api-captures/anthropic-sdk-ts--max-tokens-inside-tool-use.sse.json, provenance
 * there), served through the real SDK: the cut call is never run nor sent back, and the run can
 * be continued with a request the API accepts.
 */

const capture = JSON.parse(
  readFileSync('test/fixtures/api-captures/anthropic-sdk-ts--max-tokens-inside-tool-use.sse.json', 'utf8'),
) as { response: { sse: string } };

const server = useMockServer();

describe('a tool_use cut off by max_tokens, from the API', () => {
  it('is incomplete: not run, not in the conversation, and the next request is valid', async () => {
    const bodies: MessagesRequest[] = [];
    const answers = [
      () =>
        new HttpResponse(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(capture.response.sse));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
      () => sseResponse([messageStart(), ...textBlock(0, ['Here is a shorter guide.']), ...messageEnd('end_turn', 8)]),
    ];
    server.use(
      http.post(API_URL, async ({ request }) => {
        bodies.push((await request.json()) as MessagesRequest);
        return answers[bodies.length - 1]!();
      }),
    );
    const write = vi.fn(() => 'written');
    const writeFile = defineTool({
      name: 'make_file',
      description: 'Writes files.',
      input: {
        type: 'object',
        properties: { filename: { type: 'string' }, lines_of_text: { type: 'array', items: { type: 'string' } } },
      },
      run: write,
    });
    const transport = new AnthropicTransport({ client: new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 }) });
    const agent = new Agent({ name: 'writer', model: 'claude-sonnet-4-5', transport, tools: [writeFile] });
    const result = await agent.run('Write a tax guide to taxes.txt.');

    expect(result.stopReason).toBe('max_tokens');
    expect(write).not.toHaveBeenCalled();
    const cut = result.responses[0]!.content.at(-1)!;
    expect(cut.type).toBe('tool_use');
    expect(result.toolCalls).toEqual([
      expect.objectContaining({ id: (cut as { id: string }).id, outcome: 'incomplete', input: undefined }),
    ]);
    // The assistant message ends before the cut call: the text the model finished, nothing else.
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: [result.responses[0]!.content[0]] });

    const next = await agent.run('Keep it shorter.', { history: result.messages });
    expect(next.text).toBe('Here is a shorter guide.');
    expect(conversationBreach(bodies[1]!)).toBeUndefined();
  });
});
