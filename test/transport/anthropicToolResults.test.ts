import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import { Agent, AnthropicTransport, defineTool, toolError } from '../../src/index.js';
import {
  messageEnd,
  messageStart,
  messagesEndpoint,
  sseResponse,
  textBlock,
  toolUseBlock,
} from '../support/anthropicApi.js';
import { EXAMPLES } from '../support/toolResultExamples.js';

const server = useMockServer();

const noInput = { type: 'object', properties: {} } as const;

describe('tool results beyond text, sent through the real SDK', () => {
  it('sends content blocks and an error result in the next request, as the tools returned them', async () => {
    const endpoint = messagesEndpoint([
      () =>
        sseResponse([
          messageStart({ inputTokens: 20 }),
          ...toolUseBlock(0, 'toolu_01S', 'search_docs', ['{}']),
          ...toolUseBlock(1, 'toolu_01R', 'read_report', ['{}']),
          ...messageEnd('tool_use', 30),
        ]),
      () =>
        sseResponse([
          messageStart({ inputTokens: 60 }),
          ...textBlock(0, ['The timeout is 30 s.']),
          ...messageEnd('end_turn', 8),
        ]),
    ]);
    server.use(endpoint.handler);
    const searchDocs = defineTool({
      name: 'search_docs',
      description: 'Searches the documentation.',
      input: noInput,
      run: () => EXAMPLES.searchResults,
    });
    const readReport = defineTool({
      name: 'read_report',
      description: 'Reads the report.',
      input: noInput,
      run: () => toolError([...EXAMPLES.text, ...EXAMPLES.pdfBase64]),
    });
    const agent = new Agent({
      name: 'docs',
      model: 'claude-sonnet-5-5',
      tools: [searchDocs, readReport],
      transport: new AnthropicTransport({ client: new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 }) }),
    });
    const result = await agent.run('What is the default timeout?');

    expect(result.text).toBe('The timeout is 30 s.');
    const second = endpoint.bodies[1] as { messages: unknown[] };
    expect(second.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01S', content: EXAMPLES.searchResults },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01R',
          content: [...EXAMPLES.text, ...EXAMPLES.pdfBase64],
          is_error: true,
        },
      ],
    });
  });
});
