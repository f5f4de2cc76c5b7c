import type { MessagesRequest } from '../../src/index.js';

/**
 * The Messages API's documented rules for the conversation a request carries, checked the way
 * the API reads it: consecutive messages of one role combined into one turn (Messages API reference,
 * `messages`, https://platform.claude.com/docs/en/api/messages/create: "Consecutive `user` or
 * `assistant` turns in your request will be combined into a single turn").
 * Each rule cites where it is written down; the checker knows nothing of legate.
 * Returns the first broken rule, in words, or undefined when the request is one the API accepts.
 */

type Block = { type: string; [field: string]: unknown };
type Turn = { role: string; content: Block[] };

const DOCS = {
  nonEmpty:
    'the API\'s 400 invalid_request_error "messages.N: all messages must have non-empty content except for the ' +
    'optional final assistant message" (quoted in public bug reports, e.g. sst/opencode#2655, tidyverse/ellmer#710)',
  firstUser: "Messages API reference, `messages`: a conversation starts with the user's turn",
  answered:
    'Tool use, "Handle tool calls" ' +
    '(https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls): ' +
    'every tool_use is answered by a tool_result in the next user message, and the tool_result blocks come first ' +
    'in its content',
  pairing:
    'the API\'s 400 (test/fixtures/api-captures/anthropic-sdk-py--error-400-unanswered-tool-result.json): "Each ' +
    '`tool_result` block must have a corresponding `tool_use` block in the previous message"',
  uniqueIds: 'Tool use: each tool_use `id` identifies one call; results are matched to calls by it',
  pauseTurn:
    'Stop reasons, pause_turn (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons): ' +
    '"Send the assistant content back to continue"',
} as const;

export type ConversationRule = keyof typeof DOCS;

export interface RuleBreach {
  rule: ConversationRule;
  /** Where in the request's messages (after combining consecutive turns: the turn index). */
  turn: number;
  message: string;
  source: string;
}

const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : (content as Block[]);

/** The turns the API reads: consecutive messages of one role combined into one. */
export function apiTurns(request: Pick<MessagesRequest, 'messages'>): Turn[] {
  const turns: Turn[] = [];
  for (const message of request.messages) {
    const last = turns.at(-1);
    if (last !== undefined && last.role === message.role) last.content.push(...blocksOf(message.content));
    else turns.push({ role: message.role, content: [...blocksOf(message.content)] });
  }
  return turns;
}

/** The first documented rule the request's conversation breaks, or undefined. */
export function conversationBreach(request: Pick<MessagesRequest, 'messages'>): RuleBreach | undefined {
  const breach = (rule: ConversationRule, turn: number, message: string): RuleBreach => ({
    rule,
    turn,
    message,
    source: DOCS[rule],
  });
  // Emptiness is per message as sent: an empty message is refused even beside a non-empty one.
  for (const [i, message] of request.messages.entries()) {
    const final = i === request.messages.length - 1 && message.role === 'assistant';
    if (blocksOf(message.content).length === 0 && !final)
      return breach('nonEmpty', i, `messages[${i}] (${message.role}) has no content`);
  }
  const turns = apiTurns(request);
  if (turns[0]?.role !== 'user') return breach('firstUser', 0, 'the conversation does not start with a user turn');
  const last = turns.at(-1)!;
  if (last.role === 'assistant' && last.content.length === 0)
    return breach('pauseTurn', turns.length - 1, 'the final assistant turn is empty: nothing to continue from');
  const seen = new Set<string>();
  for (const [t, turn] of turns.entries()) {
    if (turn.role !== 'assistant') continue;
    const uses = turn.content.filter((b) => b.type === 'tool_use').map((b) => b.id as string);
    for (const id of uses) {
      if (seen.has(id)) return breach('uniqueIds', t, `tool_use id ${id} is used twice`);
      seen.add(id);
    }
    const next = turns[t + 1];
    if (next === undefined) {
      if (uses.length > 0) return breach('answered', t, `the final assistant turn has unanswered tool_use ${uses[0]}`);
      continue;
    }
    const results = next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id as string);
    const leading = next.content.findIndex((b) => b.type !== 'tool_result');
    const firstOther = leading === -1 ? next.content.length : leading;
    if (results.length > firstOther)
      return breach('answered', t + 1, 'a tool_result comes after another block in its user turn');
    for (const id of uses)
      if (!results.includes(id)) return breach('answered', t + 1, `tool_use ${id} is not answered in the next turn`);
    for (const id of results)
      if (!uses.includes(id))
        return breach('pairing', t + 1, `tool_result ${id} answers no tool_use of the turn before`);
  }
  if (turns[0]!.content.some((b) => b.type === 'tool_result'))
    return breach('pairing', 0, 'the first turn holds a tool_result, with no tool_use before it');
  return undefined;
}
