import { describe, expect, it } from 'vitest';
import {
  ScriptExhaustedError,
  ScriptNotDoneError,
  ScriptedTransport,
  reply,
  type MessagesRequest,
  type StreamEvent,
} from '../../src/index.js';

const request = (text: string): MessagesRequest => ({
  model: 'claude-test',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
});

describe('ScriptedTransport', () => {
  it('serves its responses in order, filling in ids, model and usage deterministically', async () => {
    const transport = new ScriptedTransport([
      reply.toolUses([
        { name: 'a', input: {} },
        { name: 'b', input: { x: 1 }, id: 'toolu_mine' },
      ]),
      reply.text('done'),
    ]);
    const first = await transport.send(request('go'));
    expect(first).toMatchObject({
      id: 'msg_scripted_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
      content: [
        { type: 'tool_use', id: 'toolu_s1_1', name: 'a', input: {} },
        { type: 'tool_use', id: 'toolu_mine', name: 'b', input: { x: 1 } },
      ],
    });
    expect(first.usage.input_tokens).toBeGreaterThan(0);
    const again = await new ScriptedTransport([
      reply.toolUses([
        { name: 'a', input: {} },
        { name: 'b', input: { x: 1 }, id: 'toolu_mine' },
      ]),
    ]).send(request('go'));
    expect(again).toEqual(first);
    expect((await transport.send(request('next'))).content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('records each request as it was when sent', async () => {
    const transport = new ScriptedTransport([reply.text('one')]);
    const sent = request('hello');
    await transport.send(sent);
    sent.messages.push({ role: 'assistant', content: [] });
    expect(transport.requests).toEqual([request('hello')]);
  });

  it('can answer with a function of the request', async () => {
    const transport = new ScriptedTransport((req, call) =>
      reply.text(`call ${call}: ${String(req.messages[0]!.content)}`),
    );
    expect((await transport.send(request('ping'))).content).toEqual([{ type: 'text', text: 'call 1: ping' }]);
    expect((await transport.send(request('pong'))).content).toEqual([{ type: 'text', text: 'call 2: pong' }]);
    expect(() => transport.assertDone()).not.toThrow();
  });

  it('says how many responses it has when called once too often', async () => {
    const transport = new ScriptedTransport([reply.text('only one')]);
    await transport.send(request('a'));
    const failure = transport.send(request('b'));
    await expect(failure).rejects.toThrow(ScriptExhaustedError);
    await expect(failure).rejects.toThrow(
      'The scripted model was called 2 times but its script has 1 response. Add a response for call 2, or end ' +
        'the run sooner (the last message was a user message).',
    );
  });

  it('reports unserved responses from assertDone', async () => {
    const transport = new ScriptedTransport([reply.text('a'), reply.text('b')]);
    await transport.send(request('x'));
    expect(transport.remaining).toBe(1);
    expect(() => transport.assertDone()).toThrow(ScriptNotDoneError);
    expect(() => transport.assertDone()).toThrow('served 1 of 2 responses; 1 were never asked for');
  });

  it('streams the blocks of its response to an observer and keeps thinking signatures exact', async () => {
    const events: StreamEvent[] = [];
    const transport = new ScriptedTransport([reply.thinking('Let me see.', 'sig/+==', reply.text('Answer'))]);
    const response = await transport.send(request('q'), { onStreamEvent: (e) => events.push(e) });
    expect(response.content).toEqual([
      { type: 'thinking', thinking: 'Let me see.', signature: 'sig/+==' },
      { type: 'text', text: 'Answer' },
    ]);
    expect(events).toEqual([
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, thinking: 'Let me see.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Answer' },
      { type: 'block_stop', index: 1 },
    ]);
  });

  it('refuses a script that is neither a list nor a function', () => {
    expect(() => new ScriptedTransport('hello' as never)).toThrow(
      'A ScriptedTransport needs a list of responses or a function of the request.',
    );
  });
});
