import { describe, expect, it } from 'vitest';
import { ModelResponseError } from '../../src/index.js';
import { parseModelResponse } from '../../src/messages/parseModelResponse.js';
import { caught } from '../support/caught.js';

const valid = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5-5',
  content: [
    { type: 'text', text: 'hi', citations: null },
    { type: 'tool_use', id: 'toolu_1', name: 'a', input: { x: 1 }, caller: { type: 'direct' } },
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  container: null,
  usage: {
    input_tokens: 3,
    output_tokens: 4,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: 2,
    server_tool_use: null,
  },
};

describe('parseModelResponse', () => {
  it('keeps what the conversation needs, exactly, and drops the rest', () => {
    expect(parseModelResponse(valid)).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 'toolu_1', name: 'a', input: { x: 1 } },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 2 },
    });
  });

  it.each([
    ['a string', 'hello', '', `the answer should be an object of type "message", but it was the string "hello".`],
    [
      'a user message',
      { ...valid, role: 'user' },
      'role',
      `'role' should be "assistant", but it was the string "user".`,
    ],
    [
      'content that is not a list',
      { ...valid, content: 'hi' },
      'content',
      `'content' should be an array of content blocks, but it was the string "hi".`,
    ],
    [
      'a text block without text',
      { ...valid, content: [{ type: 'text' }] },
      'content[0].text',
      `'content[0].text' should be a string, but it was undefined.`,
    ],
    [
      'an unknown stop reason',
      { ...valid, stop_reason: 'done' },
      'stop_reason',
      `'stop_reason' should be null or one of end_turn, max_tokens, stop_sequence, tool_use, pause_turn, ` +
        'refusal, model_context_window_exceeded, but it was the string "done".',
    ],
    [
      'negative usage',
      { ...valid, usage: { input_tokens: -1, output_tokens: 0 } },
      'usage.input_tokens',
      `'usage.input_tokens' should be a whole number of tokens, but it was the number -1.`,
    ],
  ])('refuses %s, naming the field, what was expected and what arrived', (_case, value, path, detail) => {
    const error = caught(() => parseModelResponse(value, 'My transport'), ModelResponseError);
    expect(error.path).toBe(path);
    expect(error.message).toBe(
      `My transport answered with something that is not a Messages API response: ${detail} A transport must ` +
        'resolve to the assistant message, as the API returns it.',
    );
  });
});
