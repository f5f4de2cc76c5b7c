import { describe, expect, it } from 'vitest';
import {
  Agent,
  type MessagesRequest,
  type ModelResponse,
  ScriptedTransport,
  type StreamEvent,
  TransportError,
  UsageError,
  defineTool,
  reply,
} from '../../src/index.js';
import { sseEventsOf, sseText } from '../../src/transport/scripted/sseEvents.js';

// A scripted response can be served as the API streams it: rendered as server-sent events, read by the real SDK's
// stream parser and the Anthropic transport, with no network. Faults on the way surface as the TransportError the
// live API would give.

const request: MessagesRequest = {
  model: 'claude-test',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'go' }],
};

const add = defineTool({
  name: 'add',
  description: 'Adds two whole numbers.',
  input: {
    type: 'object',
    properties: { left: { type: 'integer' }, right: { type: 'integer' } },
    required: ['left', 'right'],
  },
  run: (args) => String(args.left + args.right),
});

const script = () => [
  reply.thinking(
    'Adding, naïvely 🧮.',
    'sig/+==',
    reply.toolUse('add', { left: 40, right: 2 }, { text: 'Let me add.' }),
  ),
  reply.text('The sum is 42 — done ✓.'),
];

async function failure(transport: ScriptedTransport): Promise<{ error: TransportError; events: StreamEvent[] }> {
  const events: StreamEvent[] = [];
  const error = await transport.send(request, { onStreamEvent: (e) => events.push(e) }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TransportError);
  return { error: error as TransportError, events };
}

describe('ScriptedTransport, streamed', () => {
  it('a run served as streams ends as the same run served whole, and streams every block', async () => {
    const whole = await new Agent({
      name: 'calc',
      model: 'claude-test',
      tools: [add],
      transport: new ScriptedTransport(script()),
    }).run('40 + 2?');
    const events: StreamEvent[] = [];
    const streamed = await new Agent({
      name: 'calc',
      model: 'claude-test',
      tools: [add],
      transport: new ScriptedTransport(script(), { stream: true }),
    }).run('40 + 2?', { onEvent: (e) => e.type === 'stream' && events.push(e.event) });

    expect(streamed.responses).toEqual(whole.responses);
    expect(streamed.messages).toEqual(whole.messages);
    expect(streamed.text).toBe('The sum is 42 — done ✓.');
    expect(events).toEqual([
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, thinking: 'Adding, naïvely 🧮.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Let me add.' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_use', id: 'toolu_s1_1', name: 'add' } },
      { type: 'input_json_delta', index: 2, partialJson: '{"left":40,"right":2}' },
      { type: 'block_stop', index: 2 },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'The sum is 42 — done ✓.' },
      { type: 'block_stop', index: 0 },
    ]);
  });

  it('split inside every multi-byte character, and into single bytes, the response is the same', async () => {
    const response = await new ScriptedTransport(script()).send(request);
    const body = sseText(sseEventsOf(response));
    const encoder = new TextEncoder();
    const inside: number[] = [];
    let offset = 0;
    for (const char of body) {
      const size = encoder.encode(char).length;
      for (let i = 1; i < size; i++) inside.push(offset + i);
      offset += size;
    }
    expect(inside.length).toBe(4); // ï: 1 place inside it, 🧮: 3
    for (const at of inside) {
      const split = await new ScriptedTransport([reply.streamed(script()[0]!, { splitAt: [at] })]).send(request);
      expect(split).toEqual(response);
    }
    const everyByte = Array.from({ length: offset }, (_, i) => i);
    const crumbs = await new ScriptedTransport([reply.streamed(script()[0]!, { splitAt: everyByte })]).send(request);
    expect(crumbs).toEqual(response);
  });

  it('a full ModelResponse step is streamed by the transport-wide option, all its fields kept', async () => {
    const response: ModelResponse = {
      id: 'msg_full',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Cut sho' }],
      stop_reason: 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    const served = await new ScriptedTransport([response], { stream: { splitAt: [5, 50, 51] } }).send(request);
    expect(served).toEqual(response);
  });

  it('a tool input cut off by max_tokens streams what arrived and no block_stop; the response says so', async () => {
    const response: ModelResponse = {
      id: 'msg_cut',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'text', text: 'Writing the file.' },
        { type: 'tool_use', id: 'toolu_cut', name: 'make_file', input: {} },
      ],
      stop_reason: 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 100 },
      incompleteToolUse: { index: 1, partialJson: '{"filename": "taxes.txt", "lines": ["Filing' },
    };
    const events: StreamEvent[] = [];
    const served = await new ScriptedTransport([response], { stream: true }).send(request, {
      onStreamEvent: (e) => events.push(e),
    });
    expect(served).toEqual(response);
    expect(events.slice(3)).toEqual([
      { type: 'block_start', index: 1, block: { type: 'tool_use', id: 'toolu_cut', name: 'make_file' } },
      { type: 'input_json_delta', index: 1, partialJson: '{"filename": "taxes.txt", "lines": ["Filing' },
    ]);
  });
});

describe('ScriptedTransport, streamed with faults', () => {
  it('an error event after N events: kind api, its type, no status; what came before was streamed', async () => {
    const { error, events } = await failure(
      new ScriptedTransport([reply.streamed(reply.text('Half an answer'), { errorAfterEvents: 3 })]),
    );
    expect(error).toMatchObject({ kind: 'api', errorType: 'overloaded_error', status: undefined });
    expect(error.requestId).toBe('req_scripted');
    expect(events).toEqual([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Half an answer' },
    ]);
  });

  it('the error event says what the script says', async () => {
    const error = { type: 'api_error', message: 'Internal server error' };
    const { error: failed } = await failure(
      new ScriptedTransport([reply.text('x')], { stream: { errorAfterEvents: 0, error } }),
    );
    expect(failed).toMatchObject({ kind: 'api', errorType: 'api_error' });
    expect(failed.message).toContain('(api_error): Internal server error.');
  });

  it('the connection dropped mid-stream, split or not: kind connection', async () => {
    for (const splitAt of [[], [3, 100, 101, 102]]) {
      const { error } = await failure(
        new ScriptedTransport([reply.streamed(reply.text('Never finished'), { dropAfterBytes: 400, splitAt })]),
      );
      expect(error).toMatchObject({ kind: 'connection', status: undefined });
      expect(error.message).toMatch(
        /^The connection to the Anthropic API broke mid-stream, after \d+ events?: other side closed\./,
      );
    }
  });

  it('a stream that ends early (no message_stop): kind stream', async () => {
    const { error } = await failure(new ScriptedTransport([reply.text('Almost')], { stream: { endAfterEvents: 5 } }));
    expect(error).toMatchObject({ kind: 'stream' });
    expect(error.message).toContain('the stream ended after 5 events, before message_stop');
  });

  it('a run whose model stream fails rejects with the TransportError', async () => {
    const agent = new Agent({
      name: 'calc',
      model: 'claude-test',
      tools: [add],
      transport: new ScriptedTransport([
        reply.toolUse('add', { left: 1, right: 2 }),
        reply.streamed(reply.text('The sum'), { dropAfterBytes: 300 }),
      ]),
    });
    await expect(agent.run('1 + 2?')).rejects.toMatchObject({ name: 'TransportError', kind: 'connection' });
  });

  it.each([
    [{ splitAt: [1.5] }, 'has splitAt [1.5], not a list of byte offsets'],
    [{ errorAfterEvents: -1 }, 'has errorAfterEvents -1'],
    [{ dropAfter: 3 }, 'has an unknown key "dropAfter"'],
    [{ errorAfterEvents: 1, error: { type: 'x' } }, 'has error {"type":"x"}, not { type, message }'],
  ])('refuses a delivery it cannot serve: %j', async (delivery, said) => {
    expect(() => new ScriptedTransport([], { stream: delivery as never })).toThrow(UsageError);
    expect(() => new ScriptedTransport([], { stream: delivery as never })).toThrow(said);
    await expect(
      new ScriptedTransport([reply.streamed(reply.text('x'), delivery as never)]).send(request),
    ).rejects.toThrow(said);
  });
});
