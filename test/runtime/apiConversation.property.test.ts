import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, type Message, type ScriptedReply } from '../../src/index.js';
import { conversationBreach } from '../support/apiConversation.js';

/**
 * Every request legate sends carries a conversation the API accepts (test/support/apiConversation.ts
 * holds the documented rules, each with its source), whatever the model answers: refusals (with
 * and without text), empty turns, pause_turn with server tool blocks, max_tokens cut at any block
 * (a tool_use included), parallel calls (allowed, refused, failing, unknown, blocked by taint),
 * server tool results, thinking. The run is then continued with a new input, as a chat would, and
 * that request is checked too.
 */

type Block = ScriptedReply['content'][number];

const noInput = { type: 'object', properties: {} } as const;
const tools = [
  defineTool({ name: 'read_page', description: 'Reads a page.', input: noInput, untrusted: true, run: () => 'page' }),
  defineTool({ name: 'lookup', description: 'Looks up.', input: noInput, run: () => 'found' }),
  defineTool({
    name: 'send_payment',
    description: 'Pays.',
    input: noInput,
    privileged: true,
    run: () => 'paid',
  }),
  defineTool({
    name: 'flaky',
    description: 'Fails.',
    input: noInput,
    run: () => {
      throw new Error('down');
    },
  }),
  defineTool({
    name: 'strict',
    description: 'Needs a number.',
    input: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    run: () => 'ok',
  }),
];

const text = fc.string({ minLength: 1, maxLength: 12 }).map((t): Block => ({ type: 'text', text: t }));
const thinking = fc
  .string({ minLength: 1, maxLength: 12 })
  .map((t): Block => ({ type: 'thinking', thinking: t, signature: `sig-${t.length}` }));
const call = fc
  .constantFrom('read_page', 'lookup', 'send_payment', 'flaky', 'strict', 'no_such_tool')
  .chain((name) =>
    fc.constantFrom<unknown>({}, { n: 1 }, { n: 'one' }).map((input): Block => ({ type: 'tool_use', name, input })),
  );
/** A web search the API ran: its use and, usually, its result in the same response. */
const serverBlocks = (id: string, withResult: boolean): Block[] => [
  { type: 'server_tool_use', id, name: 'web_search', input: { query: 'news' } },
  ...(withResult ? [{ type: 'web_search_tool_result', tool_use_id: id, content: [] } as unknown as Block] : []),
];

/** One model response, as a shape; server ids are given when the script is served. */
type Shape =
  | { kind: 'text'; blocks: Block[]; stop: 'end_turn' | 'stop_sequence' }
  | { kind: 'refusal'; blocks: Block[]; stop: 'refusal' | 'model_context_window_exceeded' }
  | { kind: 'tools'; blocks: Block[]; server: boolean }
  | { kind: 'pause'; withResult: boolean; blocks: Block[] }
  | { kind: 'cut'; blocks: Block[]; at: number };

const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    kind: fc.constant('text' as const),
    // A tool call under end_turn or stop_sequence is not what the API sends, but a transport may.
    blocks: fc.array(fc.oneof(text, thinking, call), { maxLength: 2 }),
    stop: fc.constantFrom('end_turn' as const, 'stop_sequence' as const),
  }),
  // A refusal can stop a response anywhere, a tool call included; so can a full context window.
  fc.record({
    kind: fc.constant('refusal' as const),
    blocks: fc.array(fc.oneof(text, call), { maxLength: 2 }),
    stop: fc.constantFrom('refusal' as const, 'model_context_window_exceeded' as const),
  }),
  fc.record({
    kind: fc.constant('tools' as const),
    blocks: fc
      .tuple(fc.array(fc.oneof(thinking, text), { maxLength: 2 }), fc.array(call, { minLength: 1, maxLength: 3 }))
      .map(([before, calls]) => [...before, ...calls]),
    server: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('pause' as const),
    withResult: fc.boolean(),
    blocks: fc.array(text, { maxLength: 1 }),
  }),
  fc.record({
    kind: fc.constant('cut' as const),
    blocks: fc.array(fc.oneof(text, thinking, call), { minLength: 1, maxLength: 4 }),
    at: fc.nat(),
  }),
);

function served(s: Shape, call: number): ScriptedReply {
  const id = `srvtoolu_${call}`;
  switch (s.kind) {
    case 'text':
      return { content: s.blocks, stopReason: s.stop };
    case 'refusal':
      return { content: s.blocks, stopReason: s.stop };
    case 'tools':
      return { content: [...(s.server ? serverBlocks(id, true) : []), ...s.blocks], stopReason: 'tool_use' };
    case 'pause':
      return { content: [...s.blocks, ...serverBlocks(id, s.withResult)], stopReason: 'pause_turn' };
    case 'cut':
      // Cut after any block: the response ends there, whatever kind the block is.
      return { content: s.blocks.slice(0, (s.at % s.blocks.length) + 1), stopReason: 'max_tokens' };
  }
}

async function requestsOf(shapes: Shape[]) {
  const transport = new ScriptedTransport((_request, call) =>
    call <= shapes.length ? served(shapes[call - 1]!, call) : reply.text('Done.'),
  );
  const agent = new Agent({ name: 'chat', model: 'claude-sonnet-5-5', transport, tools, maxTurns: 6 });
  const first = await agent.run('Help me.');
  await agent.run('And now?', { history: first.messages });
  return transport.requests;
}

describe('every request legate sends is a conversation the API accepts', () => {
  it('whatever the model answers, turn after turn, and when the conversation is continued (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(shape, { minLength: 1, maxLength: 7 }), async (shapes) => {
        for (const [i, request] of (await requestsOf(shapes)).entries()) {
          const breach = conversationBreach(request);
          expect(breach, `request ${i + 1}: ${breach?.message} (${breach?.source})`).toBeUndefined();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the checker is not blind: a loop that appends every response as it came breaks it', () => {
    // What legate did before its guard: each response appended whole, the run's input after it.
    const naive = (content: Block[]): Message[] => [
      { role: 'user', content: 'Help me.' },
      { role: 'assistant', content: content as Message['content'] & object[] } as Message,
      { role: 'user', content: 'And now?' },
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant<Block[]>([]), // a refusal or an empty end_turn
          // a max_tokens cut inside a tool_use
          fc.array(fc.oneof(text, thinking), { maxLength: 2 }).chain((before) => call.map((cut) => [...before, cut])),
        ),
        (content) => {
          expect(conversationBreach({ messages: naive(content) })).toBeDefined();
        },
      ),
    );
  });
});
