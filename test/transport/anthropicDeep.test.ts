import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import { Agent, AnthropicTransport, TransportError, defineTool, type ToolCall } from '../../src/index.js';
import {
  messageEnd,
  messageJson,
  messageStart,
  messagesEndpoint,
  sseResponse,
  textBlock,
  toolUseBlock,
} from '../support/anthropicApi.js';
import { HttpResponse } from 'msw';

const server = useMockServer();

const DEEP = 20_000;
/** A tool input 20,000 levels deep, as JSON text: `{"a":[[[...]]]}`. */
const deepJson = `{"a":${'['.repeat(DEEP - 1)}1${']'.repeat(DEEP - 1)}}`;

const keep = defineTool({
  name: 'keep',
  description: 'Keeps.',
  input: { type: 'object', properties: { a: { type: 'string' } } },
  run: () => 'kept',
});

describe('a model that sends a tool input deeper than the SDK can write back', () => {
  it.each([true, false])(
    'stream %s: the call is refused too_deep, and the next request fails with a TransportError that says why, ' +
      'not a RangeError',
    async (stream) => {
      const endpoint = messagesEndpoint([
        () =>
          stream
            ? sseResponse([
                messageStart(),
                ...toolUseBlock(0, 'toolu_deep', 'keep', [deepJson]),
                ...messageEnd('tool_use', 30),
              ])
            : // The body written as text: msw's own JSON.stringify could not write it.
              new HttpResponse(
                JSON.stringify(
                  messageJson([{ type: 'tool_use', id: 'toolu_deep', name: 'keep', input: 'DEEP' }], 'tool_use'),
                ).replace('"DEEP"', deepJson),
                { headers: { 'content-type': 'application/json' } },
              ),
        () =>
          sseResponse([messageStart({ id: 'msg_02' }), ...textBlock(0, ['never sent']), ...messageEnd('end_turn', 6)]),
      ]);
      server.use(endpoint.handler);
      const calls: ToolCall[] = [];
      const agent = new Agent({
        name: 'keeper',
        model: 'claude-sonnet-5-5',
        tools: [keep],
        transport: new AnthropicTransport({
          client: new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 }),
          stream,
        }),
      });
      const error = await agent
        .run('Keep it.', { onEvent: (event) => (event.type === 'tool_finished' ? calls.push(event.call) : undefined) })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).message).toMatch(
        /could not be written as JSON.*messages\[1\]\.content\[0\]\.input/s,
      );
      expect(endpoint.bodies).toHaveLength(1);
      expect(calls).toMatchObject([{ id: 'toolu_deep', outcome: 'invalid', error: { code: 'too_deep' } }]);
    },
  );
});
