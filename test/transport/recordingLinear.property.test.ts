import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyThroughJson } from '../../src/json/jsonText.js';
import { RecordingTransport, ScriptedTransport, reply, type Message } from '../../src/index.js';
import { apply, change, requestOf, text, type Tools } from '../support/conversationChanges.js';

/**
 * RecordingTransport copies each message of a conversation once (KnownMessages). These tests hold it to the copy
 * it replaced, kept here as the reference: the whole request through JSON on every call.
 */
describe('RecordingTransport copies each message once', () => {
  it('records every request as the whole request copied through JSON did, whatever changed between calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 25 }),
        fc.option(text, { nil: undefined }),
        fc.constantFrom<Tools>('none', 'frozen', 'mixed'),
        async (changes, system, tools) => {
          const transport = new RecordingTransport(new ScriptedTransport(() => reply.text('ok')));
          const messages: Message[] = [];
          const expected: unknown[] = [];
          for (const step of changes) {
            apply(messages, step);
            const request = requestOf(messages, system, tools);
            expected.push(copyThroughJson(request));
            await transport.send(request);
          }
          expect(transport.exchanges.map((exchange) => exchange.request)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("shares one copy of a message among the requests that hold it, and never the caller's object", async () => {
    const transport = new RecordingTransport(new ScriptedTransport(() => reply.text('ok')));
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'first' }] }];
    await transport.send(requestOf(messages, undefined));
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'second' }] });
    await transport.send(requestOf(messages, undefined));
    const [first, second] = transport.exchanges.map((exchange) => exchange.request);
    expect(second!.messages[0]).toBe(first!.messages[0]);
    expect(second!.messages[0]).not.toBe(messages[0]);
  });

  it('copies through JSON as before: a value JSON drops is dropped, a toJSON is honoured', async () => {
    const transport = new RecordingTransport(new ScriptedTransport(() => reply.text('ok')));
    const when = new Date(0);
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'x', dropped: undefined, when }] },
    ] as unknown as Message[];
    await transport.send(requestOf(messages, undefined));
    expect(transport.exchanges[0]!.request.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'x', when: '1970-01-01T00:00:00.000Z' }],
    });
  });
});
