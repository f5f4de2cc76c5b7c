import fc from 'fast-check';
import type { Exchange } from '../../src/intercept/exchange.js';
import type { Message, MessagesRequest, ModelResponse, ResponseBlock } from '../../src/messages/types.js';
import { jsonData } from '../support/jsonData.js';

// Generated Messages API traffic of tool loops, for property tests of intercepted conversations.

const TOOLS = ['lookup', 'send_email', 'search'] as const;

export const jsonish = jsonData({ maxDepth: 2 });

/** One turn: a response's blocks (text, tool calls), and each call's result. */
export const turnArb = fc.record({
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

export type Turn = {
  text: string | undefined;
  calls: { name: string; input: object; output: string; isError: boolean }[];
};

/**
 * The traffic of a hand-written tool loop over a conversation: each request is the last one's
 * messages, then the response whole and its tool results in one user message.
 */
export function trafficOf(prompt: string, turns: Turn[], name = ''): Exchange[] {
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

/**
 * The same traffic as a client keeping the conversation on the server sends it (the SDK's tool runner):
 * the first request creates a thread, each later one continues from the last response with only its
 * new messages, leaving out the tools the server keeps.
 */
export function threaded(exchanges: Exchange[]): Exchange[] {
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
export function interleave(conversations: Exchange[][], picks: number[]): Exchange[] {
  const queues = conversations.map((exchanges) => [...exchanges]);
  const out: Exchange[] = [];
  for (const pick of picks) {
    const open = queues.filter((queue) => queue.length > 0);
    if (open.length > 0) out.push(open[pick % open.length]!.shift()!);
  }
  for (const queue of queues) out.push(...queue);
  return out;
}
