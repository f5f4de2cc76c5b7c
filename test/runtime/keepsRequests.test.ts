import { describe, expect, it } from 'vitest';
import { Agent, defineTool, reply, ScriptedTransport, type MessagesRequest, type Transport } from '../../src/index.js';

/** A transport that answers as a script does and keeps each request's message list and its length then. */
function keeping(keepsRequests: boolean | undefined): Transport & { seen: { list: unknown[]; length: number }[] } {
  const script = new ScriptedTransport([
    reply.toolUse('echo', { text: 'one' }),
    reply.toolUse('echo', { text: 'two' }),
    reply.text('done'),
  ]);
  const seen: { list: unknown[]; length: number }[] = [];
  return {
    ...(keepsRequests === undefined ? {} : { keepsRequests }),
    seen,
    send: (request: MessagesRequest) => {
      seen.push({ list: request.messages, length: request.messages.length });
      return script.send(request);
    },
  };
}

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  run: ({ text }) => text,
});

describe('the conversation a transport is given (Transport.keepsRequests)', () => {
  it('is a list of its own on every call by default, which later turns leave as it was', async () => {
    const transport = keeping(undefined);
    await new Agent({ name: 'a', model: 'claude-test', tools: [echo], transport }).run('go');
    expect(transport.seen.map(({ length }) => length)).toEqual([1, 3, 5]);
    expect(transport.seen.map(({ list }) => list.length)).toEqual([1, 3, 5]);
    expect(new Set(transport.seen.map(({ list }) => list)).size).toBe(3);
  });

  it("is the run's own list, not a copy per call, for a transport that keeps nothing of a request", async () => {
    const transport = keeping(false);
    const result = await new Agent({ name: 'a', model: 'claude-test', tools: [echo], transport }).run('go');
    expect(transport.seen.map(({ length }) => length)).toEqual([1, 3, 5]);
    expect(new Set(transport.seen.map(({ list }) => list)).size).toBe(1);
    expect(transport.seen[0]!.list).toEqual(result.messages.slice(0, 6));
  });
});
