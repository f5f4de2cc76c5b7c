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
  it('keeps what the API sent and needs back: caller, server blocks, container, usage as reported', () => {
    expect(parseModelResponse(valid)).toStrictEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [
        { type: 'text', text: 'hi' },
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
    });
  });

  it('keeps a block of a type it does not type whole, whatever its fields', () => {
    const compaction = { type: 'compaction', content: 'Summary so far', encrypted_content: null, extra: [1, { a: 2 }] };
    const fallback = { type: 'fallback', from: { model: 'claude-fable-5' }, to: { model: 'claude-opus-4-8' } };
    const parsed = parseModelResponse({ ...valid, content: [compaction, fallback, { type: 'not_yet_invented' }] });
    expect(parsed.content).toStrictEqual([compaction, fallback, { type: 'not_yet_invented' }]);
  });

  it('keeps a stop reason it does not know as sent: one the API added after this release', () => {
    expect(parseModelResponse({ ...valid, stop_reason: 'tool_budget_exhausted' }).stop_reason).toBe(
      'tool_budget_exhausted',
    );
  });

  it('keeps of a typed block the fields its request form takes, and leaves out the others', () => {
    const parsed = parseModelResponse({
      ...valid,
      content: [
        { type: 'text', text: 'cited', citations: [{ type: 'char_location', cited_text: 'c' }], parsed_output: 1 },
        { type: 'thinking', thinking: 't', signature: 's', extra: true },
        { type: 'redacted_thinking', data: 'd', extra: true },
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'lookup',
          input: {},
          caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_9' },
          toolset_name: 'crm',
          extra: true,
        },
        { type: 'tool_use', id: 'toolu_3', name: 'lookup', input: {}, toolset_name: null },
      ],
    });
    expect(parsed.content).toStrictEqual([
      { type: 'text', text: 'cited', citations: [{ type: 'char_location', cited_text: 'c' }] },
      { type: 'thinking', thinking: 't', signature: 's' },
      { type: 'redacted_thinking', data: 'd' },
      {
        type: 'tool_use',
        id: 'toolu_2',
        name: 'lookup',
        input: {},
        caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_9' },
        toolset_name: 'crm',
      },
      { type: 'tool_use', id: 'toolu_3', name: 'lookup', input: {} },
    ]);
  });

  it('keeps stop_details, container, context_management and every usage field as they came', () => {
    const usage = {
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 7 },
      output_tokens: 5,
      service_tier: 'standard',
      inference_geo: 'global',
      server_tool_use: { web_search_requests: 2, web_fetch_requests: 0 },
      output_tokens_details: { thinking_tokens: 3 },
      iterations: [{ type: 'message', input_tokens: 1, output_tokens: 1 }],
    };
    const stopDetails = { type: 'refusal', category: 'cyber', explanation: 'Blocked.', recommended_model: 'm' };
    const container = { id: 'container_1', expires_at: '2026-04-24T11:13:36.730129Z', skills: null };
    const parsed = parseModelResponse({
      ...valid,
      stop_reason: 'refusal',
      stop_details: stopDetails,
      container,
      context_management: { applied_edits: [] },
      usage,
      parsed_output: null,
    });
    expect(parsed).toStrictEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: parseModelResponse(valid).content,
      stop_reason: 'refusal',
      stop_sequence: null,
      stop_details: stopDetails,
      container,
      context_management: { applied_edits: [] },
      usage,
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
      'a stop reason that is not a string',
      { ...valid, stop_reason: 3 },
      'stop_reason',
      `'stop_reason' should be null or a string (one of end_turn, max_tokens, stop_sequence, tool_use, pause_turn, ` +
        'refusal, model_context_window_exceeded, or a newer one), but it was the number 3.',
    ],
    [
      'negative usage',
      { ...valid, usage: { input_tokens: -1, output_tokens: 0 } },
      'usage.input_tokens',
      `'usage.input_tokens' should be a whole number of tokens, but it was the number -1.`,
    ],
    [
      'a block without a type',
      { ...valid, content: [{ text: 'hi' }] },
      'content[0].type',
      `'content[0].type' should be a string naming the block type, but it was undefined.`,
    ],
    [
      'a caller that is not an object',
      { ...valid, content: [{ type: 'tool_use', id: 't', name: 'n', input: {}, caller: 'direct' }] },
      'content[0].caller',
      `'content[0].caller' should be an object with a string 'type', but it was the string "direct".`,
    ],
    [
      'citations that are not a list',
      { ...valid, content: [{ type: 'text', text: 'hi', citations: 'none' }] },
      'content[0].citations',
      `'content[0].citations' should be a list of citations or null, but it was the string "none".`,
    ],
    [
      'a container without an id',
      { ...valid, container: { expires_at: '2026-01-01T00:00:00Z' } },
      'container.id',
      `'container.id' should be a string, but it was undefined.`,
    ],
    [
      'stop details that are not an object',
      { ...valid, stop_details: 'refused' },
      'stop_details',
      `'stop_details' should be an object with a string 'type', but it was the string "refused".`,
    ],
    [
      'a fractional server tool count',
      { ...valid, usage: { input_tokens: 1, output_tokens: 1, server_tool_use: { web_search_requests: 1.5 } } },
      'usage.server_tool_use.web_search_requests',
      `'usage.server_tool_use.web_search_requests' should be a whole number of requests, but it was the number 1.5.`,
    ],
    [
      'a cache breakdown that is not an object',
      { ...valid, usage: { input_tokens: 1, output_tokens: 1, cache_creation: 5 } },
      'usage.cache_creation',
      `'usage.cache_creation' should be an object or null, but it was the number 5.`,
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
