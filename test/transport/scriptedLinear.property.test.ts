import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ScriptedTransport,
  reply,
  type Message,
  type MessagesRequest,
  type ModelResponse,
  type ScriptedReply,
} from '../../src/index.js';
import { apply, change, requestOf, text, type Tools } from '../support/conversationChanges.js';

/**
 * ScriptedTransport copies and measures each message of a conversation once. These tests hold it to the
 * algorithm it replaced, kept here as the reference: a deep copy of the whole request on every call, and the
 * input-token estimate from the JSON text of the whole request, a quarter of its length rounded up.
 */
const referenceCopy = (request: MessagesRequest): MessagesRequest => structuredClone(request);
const referenceTokens = (value: unknown): number => Math.max(1, Math.ceil((JSON.stringify(value)?.length ?? 0) / 4));

describe('ScriptedTransport copies and measures each message once', () => {
  it('records every request and estimates every usage as copying and measuring the whole request did', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 25 }),
        // A string system prompt is copied key by key with the rest; blocks, by a clone.
        fc.option(fc.oneof(text, fc.array(fc.record({ type: fc.constant('text' as const), text }), { maxLength: 2 })), {
          nil: undefined,
        }),
        fc.constantFrom<Tools>('none', 'frozen', 'mixed'),
        async (changes, system, tools) => {
          const expected: { request: MessagesRequest; inputTokens: number }[] = [];
          const transport = new ScriptedTransport(() => reply.text('ok'));
          const messages: Message[] = [];
          const served: ModelResponse[] = [];
          for (const step of changes) {
            apply(messages, step);
            const request = requestOf(messages, system, tools);
            expected.push({ request: referenceCopy(request), inputTokens: referenceTokens(request) });
            served.push(await transport.send(request));
          }
          expect(transport.requests).toEqual(expected.map((e) => e.request));
          expect(served.map((response) => response.usage.input_tokens)).toEqual(expected.map((e) => e.inputTokens));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("measures the request after the script's function has seen it, as before", async () => {
    const messages: Message[] = [{ role: 'user', content: 'hello' }];
    const transport = new ScriptedTransport((request): ScriptedReply => {
      request.messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: 'added by the script '.repeat(20) }],
      });
      return reply.text('ok');
    });
    const request = requestOf(messages, undefined);
    const sent = referenceCopy(request);
    const response = await transport.send(request);
    expect(response.usage.input_tokens).toBe(referenceTokens(request));
    expect(transport.requests).toEqual([sent]);
  });

  it('shares one copy of a message among the requests that hold it (copied once, not once per call)', async () => {
    const transport = new ScriptedTransport(() => reply.text('ok'));
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'first' }] }];
    await transport.send(requestOf(messages, undefined));
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'second' }] });
    await transport.send(requestOf(messages, undefined));
    const [first, second] = transport.requests;
    expect(second!.messages[0]).toBe(first!.messages[0]);
    expect(second!.messages[0]).not.toBe(messages[0]);
  });

  it('fails as before on what JSON cannot write, and only where the estimate needs it', async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'x', big: 1n }] }] as unknown as Message[];
    const estimated = new ScriptedTransport([reply.text('ok')]);
    const error = await estimated.send(requestOf(messages, undefined)).catch((e: unknown) => e);
    const reference = (() => {
      try {
        JSON.stringify(requestOf(messages, undefined));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe((reference as Error).message);
    const given = new ScriptedTransport([{ ...reply.text('ok'), usage: { input_tokens: 3, output_tokens: 1 } }]);
    await expect(given.send(requestOf(messages, undefined))).resolves.toMatchObject({ usage: { input_tokens: 3 } });
    expect(given.requests).toEqual([referenceCopy(requestOf(messages, undefined))]);
  });

  it('streams the same usage it estimates', async () => {
    const messages: Message[] = [{ role: 'user', content: 'hello there' }];
    for (let i = 0; i < 3; i++) messages.push({ role: 'user', content: `turn ${i}` });
    const request = requestOf(messages, 'be brief');
    const transport = new ScriptedTransport([reply.text('ok'), reply.text('ok')], { stream: true });
    await transport.send(request);
    const streamed = await transport.send(request);
    expect(streamed.usage.input_tokens).toBe(referenceTokens(request));
    expect(transport.requests).toEqual([referenceCopy(request), referenceCopy(request)]);
  });
});
