import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import {
  Agent,
  AnthropicTransport,
  TransportError,
  defineTool,
  type MessagesRequest,
  type StreamEvent,
} from '../../src/index.js';
import {
  API_URL,
  errorBody,
  errorEvent,
  messageEnd,
  messageJson,
  messageStart,
  messagesEndpoint,
  ping,
  sseFrame,
  sseResponse,
  textBlock,
  thinkingBlock,
  toolUseBlock,
} from '../support/anthropicApi.js';
import { emptyUsage } from '../../src/runtime/runUsage.js';

const server = useMockServer();

const client = () => new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 2 });
const request: MessagesRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

describe('AnthropicTransport over the real SDK', () => {
  it('assembles a streamed text answer, ping events and split chunks included', async () => {
    const endpoint = messagesEndpoint([
      () =>
        sseResponse(
          [messageStart(), ping, ...textBlock(0, ['Hel', 'lo, ', 'world.']), ping, ...messageEnd('end_turn', 7)],
          { chunkSize: 17 },
        ),
    ]);
    server.use(endpoint.handler);
    const events: StreamEvent[] = [];
    const response = await new AnthropicTransport({ client: client() }).send(request, {
      onStreamEvent: (e) => events.push(e),
    });

    expect(response).toEqual({
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [{ type: 'text', text: 'Hello, world.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(events).toEqual([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Hel' },
      { type: 'text_delta', index: 0, text: 'lo, ' },
      { type: 'text_delta', index: 0, text: 'world.' },
      { type: 'block_stop', index: 0 },
    ]);
    expect(endpoint.bodies[0]).toMatchObject({ ...request, stream: true });
  });

  it('runs a two-turn tool loop: input_json_delta fragments become bound arguments; the result goes back', async () => {
    const endpoint = messagesEndpoint([
      () =>
        sseResponse([
          messageStart(),
          ...textBlock(0, ['Let me add those.']),
          ...toolUseBlock(1, 'toolu_01A', 'add', ['', '{"left": 4', '0, "ri', 'ght": 2}']),
          ...messageEnd('tool_use', 30),
        ]),
      () =>
        sseResponse([
          messageStart({ id: 'msg_02' }),
          ...textBlock(0, ['The sum is 42.']),
          ...messageEnd('end_turn', 6),
        ]),
    ]);
    server.use(endpoint.handler);
    const calls: unknown[] = [];
    const add = defineTool({
      name: 'add',
      description: 'Adds two whole numbers.',
      input: {
        type: 'object',
        properties: { left: { type: 'integer' }, right: { type: 'integer' } },
        required: ['left', 'right'],
      },
      run: (args) => {
        calls.push(args);
        return String(args.left + args.right);
      },
    });
    const agent = new Agent({
      name: 'calculator',
      model: 'claude-sonnet-5-5',
      tools: [add],
      transport: new AnthropicTransport({ client: client() }),
    });
    const result = await agent.run('What is 40 + 2?');

    expect(calls).toEqual([{ left: 40, right: 2 }]);
    expect(result.text).toBe('The sum is 42.');
    expect(result.stopReason).toBe('end_turn');
    expect(result.usage).toEqual({ ...emptyUsage(), inputTokens: 50, outputTokens: 36 });
    const second = endpoint.bodies[1] as { messages: unknown[]; tools: unknown[] };
    expect(second.messages).toEqual([
      { role: 'user', content: 'What is 40 + 2?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me add those.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'add', input: { left: 40, right: 2 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '42' }] },
    ]);
    expect(second.tools).toEqual([add.definition()]);
  });

  it('keeps a thinking block and its signature byte-exact, and sends them back on the next turn', async () => {
    const signature = 'EqQBCkYIBxgCKkDk+/Zx9Qp8==\u00e9';
    const endpoint = messagesEndpoint([
      () =>
        sseResponse([
          messageStart(),
          ...thinkingBlock(0, ['The user wants ', 'the time.'], signature),
          ...toolUseBlock(1, 'toolu_T', 'clock', ['{}']),
          ...messageEnd('tool_use', 40),
        ]),
      () =>
        sseResponse([messageStart({ id: 'msg_02' }), ...textBlock(0, ['It is noon.']), ...messageEnd('end_turn', 5)]),
    ]);
    server.use(endpoint.handler);
    const clock = defineTool({
      name: 'clock',
      description: 'Tells the time.',
      input: { type: 'object', properties: {} },
      run: (_args, ctx) => ctx.now().toISOString(),
    });
    const agent = new Agent({
      name: 'thinker',
      model: 'claude-sonnet-5-5',
      tools: [clock],
      thinking: { budgetTokens: 1024 },
      maxTokens: 2048,
      clock: () => new Date('2026-11-29T12:00:00Z'),
      transport: new AnthropicTransport({ client: client() }),
    });
    const result = await agent.run('What time is it?');

    expect(result.responses[0]!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user wants the time.',
      signature,
    });
    const second = endpoint.bodies[1] as { messages: { content: unknown[] }[]; thinking: unknown };
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(second.messages[1]!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user wants the time.',
      signature,
    });
    expect(second.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_T', content: '2026-11-29T12:00:00.000Z' },
    ]);
  });

  it.each([
    ['max_tokens', 'max_tokens'],
    ['refusal', 'refusal'],
    ['stop_sequence', 'stop_sequence'],
    ['model_context_window_exceeded', 'context_window_exceeded'],
  ] as const)('maps the API stop reason %s exactly (to %s)', async (apiReason, stopReason) => {
    server.use(
      messagesEndpoint([
        () => sseResponse([messageStart(), ...textBlock(0, ['Partial answer']), ...messageEnd(apiReason, 4)]),
      ]).handler,
    );
    const agent = new Agent({
      name: 'a',
      model: 'claude-sonnet-5-5',
      transport: new AnthropicTransport({ client: client() }),
    });
    const result = await agent.run('Tell me everything.');
    expect(result.stopReason).toBe(stopReason);
    expect(result.text).toBe('Partial answer');
  });

  it('turns an error event mid-stream into a TransportError naming the API error type', async () => {
    server.use(
      messagesEndpoint([
        () =>
          sseResponse([
            messageStart(),
            ...textBlock(0, ['Half']).slice(0, 2),
            errorEvent('overloaded_error', 'Overloaded'),
          ]),
      ]).handler,
    );
    const failure = await new AnthropicTransport({ client: client() }).send(request).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'api', errorType: 'overloaded_error', status: undefined });
    expect((failure as Error).message).toContain('overloaded_error');
    expect((failure as Error).cause).toBeInstanceOf(Anthropic.APIError);
  });

  it('lets the SDK retry a 529 overloaded answer, then returns the response', async () => {
    // The 529 carries no body here: msw 2.x (its interceptors before 0.42.5, which needs Node 22)
    // never settles the cancel() the SDK makes on a mocked body before retrying
    // (mswjs/interceptors#799). The next test serves the API's JSON error body.
    const endpoint = messagesEndpoint([
      () => new HttpResponse(null, { status: 529, headers: { 'retry-after-ms': '1', 'request-id': 'req_1' } }),
      () => sseResponse([messageStart(), ...textBlock(0, ['Back again.']), ...messageEnd('end_turn', 3)]),
    ]);
    server.use(endpoint.handler);
    const response = await new AnthropicTransport({ client: client() }).send(request);
    expect(endpoint.calls()).toBe(2);
    expect(response.content).toEqual([{ type: 'text', text: 'Back again.' }]);
  });

  it('reports overloaded_error from the JSON body once the SDK has no retries left', async () => {
    const endpoint = messagesEndpoint([
      () => HttpResponse.json(errorBody('overloaded_error', 'Overloaded'), { status: 529 }),
    ]);
    server.use(endpoint.handler);
    const noRetries = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const failure = await new AnthropicTransport({ client: noRetries }).send(request).catch((e: unknown) => e);
    expect(endpoint.calls()).toBe(1);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'api', status: 529, errorType: 'overloaded_error' });
    expect((failure as Error).message).toBe(
      'The Anthropic API failed with HTTP 529 (overloaded_error): Overloaded. The SDK gave up (it was not retried: ' +
        'maxRetries is 0): try again later, or let it retry more (new AnthropicTransport({ maxRetries })).',
    );
  });

  it('reports a refused request with its status and error type, without retrying it', async () => {
    const endpoint = messagesEndpoint([
      () => HttpResponse.json(errorBody('invalid_request_error', 'max_tokens: must be at least 1'), { status: 400 }),
    ]);
    server.use(endpoint.handler);
    const failure = await new AnthropicTransport({ client: client() }).send(request).catch((e: unknown) => e);
    expect(endpoint.calls()).toBe(1);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'api', status: 400, errorType: 'invalid_request_error' });
    expect((failure as Error).message).toBe(
      'The Anthropic API failed with HTTP 400 (invalid_request_error): max_tokens: must be at least 1',
    );
  });

  it('can send plain JSON requests instead of streaming', async () => {
    const endpoint = messagesEndpoint([
      () => HttpResponse.json(messageJson([{ type: 'text', text: 'Plain.', citations: null }], 'end_turn')),
    ]);
    server.use(endpoint.handler);
    const response = await new AnthropicTransport({ client: client(), stream: false }).send(request);
    expect(endpoint.bodies[0]).not.toHaveProperty('stream', true);
    expect(response.content).toEqual([{ type: 'text', text: 'Plain.' }]);
    // As the API reported it: its nulls kept.
    expect(response.usage).toStrictEqual({
      input_tokens: 12,
      output_tokens: 6,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
    });
  });

  it("stops a stream promptly when the run is cancelled, rejecting with the caller's reason", async () => {
    const encoder = new TextEncoder();
    server.use(
      http.post(API_URL, () => {
        // The stream starts, then stalls forever: only cancellation can end the call.
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(
              encoder.encode(
                sseFrame(messageStart()) + textBlock(0, ['Thinking...']).slice(0, 2).map(sseFrame).join(''),
              ),
            );
          },
        });
        return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const agent = new Agent({
      name: 'a',
      model: 'claude-sonnet-5-5',
      transport: new AnthropicTransport({ client: client() }),
    });
    const run = agent.run('Go', {
      signal: controller.signal,
      onEvent: (event) => event.type === 'stream' && controller.abort(reason),
    });
    await expect(run).rejects.toBe(reason);
  });
});
