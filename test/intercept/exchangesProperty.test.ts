import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSse, type Exchange } from '../../src/intercept/exchange.js';
import { sseText, type SseEvent } from '../../src/transport/scripted/sseEvents.js';
import { ExchangeReplay } from '../../src/intercept/replayExchanges.js';
import { trajectoryOfExchanges } from '../../src/intercept/trajectoryOfExchanges.js';
import { parseTrajectory } from '../../src/trajectory/parseTrajectory.js';
import { serializeTrajectory } from '../../src/trajectory/serialize.js';
import type { Message, MessagesRequest, ModelResponse, ResponseBlock } from '../../src/messages/types.js';
import { jsonData } from '../support/jsonData.js';

const TOOLS = ['lookup', 'send_email', 'search'] as const;

const jsonish = jsonData({ maxDepth: 2 });

/** One turn: a response's blocks (text, tool calls), and each call's result. */
const turnArb = fc.record({
  text: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom(...TOOLS),
      input: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), jsonish, { maxKeys: 3 }),
      output: fc.string(),
      isError: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
});

type Turn = { text: string | undefined; calls: { name: string; input: object; output: string; isError: boolean }[] };

/**
 * The traffic of a hand-written tool loop over a conversation: each request is the last one's
 * messages, then the response whole and its tool results in one user message.
 */
function trafficOf(prompt: string, turns: Turn[], name = ''): Exchange[] {
  const tools = TOOLS.map((name) => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object' } }));
  const messages: Message[] = [{ role: 'user', content: prompt }];
  const exchanges: Exchange[] = [];
  // The last turn makes no call: the loop ends there.
  const all: Turn[] = [...turns, { text: 'Done.', calls: [] }];
  all.forEach((turn, t) => {
    const content: ResponseBlock[] = [
      ...(turn.text === undefined ? [] : [{ type: 'text' as const, text: turn.text }]),
      ...turn.calls.map((call, c) => ({
        type: 'tool_use' as const,
        id: `toolu_${name}${t}_${c}`,
        name: call.name,
        input: call.input,
      })),
    ];
    const request = {
      model: 'claude-opus-4-8',
      max_tokens: 1024,
      tools,
      messages: [...messages],
    } as unknown as MessagesRequest;
    const stopReason = turn.calls.length > 0 ? 'tool_use' : 'end_turn';
    const response: ModelResponse = {
      id: `msg_${name}${t}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-8',
      content: content.length > 0 ? content : [{ type: 'text', text: '…' }],
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10 + t, output_tokens: 5 },
    };
    exchanges.push({ request, response });
    messages.push({ role: 'assistant', content: response.content });
    if (turn.calls.length > 0)
      messages.push({
        role: 'user',
        content: turn.calls.map((call, c) => ({
          type: 'tool_result' as const,
          tool_use_id: `toolu_${name}${t}_${c}`,
          content: call.output,
          ...(call.isError ? { is_error: true } : {}),
        })),
      });
  });
  return exchanges;
}

describe('an intercepted conversation', () => {
  it('is recorded as a trajectory (read back from its YAML) that answers each request it was made from', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(turnArb, { maxLength: 4 }), (prompt, turns) => {
        const exchanges = trafficOf(prompt, turns);
        const trajectory = trajectoryOfExchanges({
          name: 'loop',
          agent: 'intercepted',
          exchanges,
          recordedAt: new Date(0),
          client: {},
          normalised: [],
        });
        expect(trajectory.turns).toHaveLength(exchanges.length);
        // As a file reads it back.
        const read = parseTrajectory(serializeTrajectory(trajectory), 'loop.yaml');
        expect(read).toEqual(trajectory);
        const context = { file: 'loop.yaml', rerecord: 'again' };
        const replay = new ExchangeReplay(read, context, 'exact', (v) => v);
        for (const exchange of exchanges) {
          expect(replay.answer(exchange.request)).toEqual({ kind: 'json', body: exchange.response });
        }
        expect(replay.finish('')).toBeUndefined();
        const errors = trajectory.turns.flatMap((turn) => turn.results ?? []).filter((r) => r.outcome === 'error');
        expect(errors).toHaveLength(turns.flatMap((turn) => turn.calls).filter((call) => call.isError).length);
      }),
    );
  });
});

/**
 * The same traffic as a client keeping the conversation on the server sends it (the SDK's tool runner):
 * the first request creates a thread, each later one continues from the last response with only its
 * new messages, leaving out the tools the server keeps.
 */
function threaded(exchanges: Exchange[]): Exchange[] {
  return exchanges.map(({ request, response }, t) => {
    if (t === 0) return { request: { ...request, thread: { type: 'create' } } as MessagesRequest, response };
    const { tools: _kept, messages, ...own } = request;
    const previous = exchanges[t - 1]!;
    const fresh = messages.slice(previous.request.messages.length + 1);
    const thread = { type: 'continue', previous_message_id: previous.response.id };
    return { request: { ...own, thread, messages: fresh } as MessagesRequest, response };
  });
}

/** The exchanges of several conversations interleaved as `picks` say, each conversation's in its own order. */
function interleave(conversations: Exchange[][], picks: number[]): Exchange[] {
  const queues = conversations.map((exchanges) => [...exchanges]);
  const out: Exchange[] = [];
  for (const pick of picks) {
    const open = queues.filter((queue) => queue.length > 0);
    if (open.length > 0) out.push(open[pick % open.length]!.shift()!);
  }
  for (const queue of queues) out.push(...queue);
  return out;
}

describe('several intercepted conversations, interleaved', () => {
  it('come apart into their conversations, and each request, in any interleaving, gets its own response', () => {
    const conversation = fc.record({
      turns: fc.array(turnArb, { maxLength: 3 }),
      threaded: fc.boolean(),
    });
    const picks = fc.array(fc.nat(5), { maxLength: 20 });
    fc.assert(
      fc.property(fc.array(conversation, { minLength: 1, maxLength: 3 }), picks, picks, (specs, sent, asked) => {
        const conversations = specs.map((spec, i) => {
          const traffic = trafficOf(`Conversation ${i}: go.`, spec.turns, `c${i}_`);
          return spec.threaded ? threaded(traffic) : traffic;
        });
        const trajectory = trajectoryOfExchanges({
          name: 'many',
          agent: 'intercepted',
          exchanges: interleave(conversations, sent),
          recordedAt: new Date(0),
          client: {},
          normalised: [],
        });
        const read = parseTrajectory(serializeTrajectory(trajectory), 'many.yaml');
        expect(read).toEqual(trajectory);
        const recorded = [read, ...(read.conversations ?? [])];
        expect(recorded.map((run) => run.turns.length).sort()).toEqual(conversations.map((c) => c.length).sort());
        const replay = new ExchangeReplay(read, { file: 'many.yaml', rerecord: 'again' }, 'exact', (v) => v);
        for (const exchange of interleave(conversations, asked))
          expect(replay.answer(exchange.request)).toEqual({ kind: 'json', body: exchange.response });
        expect(replay.finish('')).toBeUndefined();
      }),
    );
  });
});

describe('server-sent events', () => {
  it('read back as the same events once framed', () => {
    const event = fc
      .record({ type: fc.stringMatching(/^[a-z_]{1,20}$/), body: fc.dictionary(fc.string(), jsonish) })
      .map(({ type, body }) => ({ ...body, type }) as SseEvent);
    fc.assert(
      fc.property(fc.array(event), (events) => {
        expect(parseSse(sseText(events))).toEqual(events);
      }),
    );
  });
});
