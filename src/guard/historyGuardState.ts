import { describeValue as describe } from '../json/describeValue.js';
import type { Message } from '../messages/types.js';
import {
  conversationParts,
  isServerResult,
  type ServerUses,
  serverResultSource,
  serverResultUntrusted,
} from './conversationParts.js';
import type { GuardState } from './guardState.js';
import { addTaintSource, initialGuardState, taintSourcesOf, type TaintSource } from './guardState.js';
import { defaultServerToolUntrusted } from '../tools/serverTool.js';
import { copyToolRecord, emptyToolRecord, toolRecordValue } from './toolRecord.js';

/** The taint source of a tool result no tool can be named for: who wrote it is unknown, so it is not trusted. */
export const UNATTRIBUTED_SOURCE = 'unattributed tool result';

/** What the history walk needs to know about a tool name, over every agent a run can reach. */
export interface HistoryTool {
  /** Some agent that has a tool of this name reads untrusted content with it. */
  untrusted: boolean;
  /** Some agent whose run this is ends its run when a tool of this name succeeds. */
  terminal: boolean;
}

/**
 * The guard state a conversation carries, recomputed from its messages, so that a run
 * continuing it is never cleaner than the conversation it holds:
 * - each tool_result is paired with a tool_use of the assistant message just before it (the
 *   API's own pairing) and attributed, by that tool_use's name, through `toolOf`;
 * - a result that succeeded (`is_error` absent or false) is a success of its tool; the first
 *   one of an untrusted tool taints (every one is a taint source), the first one of a terminal tool ends the run;
 * - an error result of an untrusted tool taints too (it may be the tool's own words, returned with
 *   `toolError`, which taint in a live run; the history cannot tell them from legate's refusals);
 * - a result that cannot be attributed (no tool_use just before it, a name `toolOf` does not
 *   know, an id two tool_uses share) taints, error or not, with {@link UNATTRIBUTED_SOURCE};
 * - a server tool's result (a web search, a fetch) in an assistant message taints, with the
 *   server tool's name as source, unless `serverUntrusted` trusts that tool (see
 *   {@link serverResultTaints});
 * - every tool_use counts as an attempt: a history does not say which calls the guard refused.
 * Successes found here are recorded at turn 0, before the run that continues the conversation.
 * `messages` must have passed {@link historyShapeProblem}.
 */
export function guardStateOfHistory(
  messages: readonly Message[],
  toolOf: (name: string) => HistoryTool | undefined,
  serverUntrusted: ServerResultTrust = defaultServerToolUntrusted,
): GuardState {
  const state = initialGuardState();
  const taint = (source: string, id: string) => addTaintSource(state, { source, id });
  for (const part of conversationParts(messages)) {
    if (part.kind === 'user text') continue;
    if (part.kind === 'call') {
      state.attempts[part.name] = (toolRecordValue(state.attempts, part.name) ?? 0) + 1;
      continue;
    }
    if (part.kind === 'server result') {
      if (serverResultUntrusted(part, serverUntrusted)) taint(part.tool, part.id);
      continue;
    }
    const name = part.tool;
    const tool = name === undefined ? undefined : toolOf(name);
    if (name === undefined || tool === undefined) {
      taint(UNATTRIBUTED_SOURCE, part.id);
      continue;
    }
    if (part.isError) {
      // An error result may hold the tool's own words (toolError), which taint as in a live run;
      // the history cannot tell them from a refusal legate wrote, so it fails closed.
      if (tool.untrusted) taint(name, part.id);
      continue;
    }
    state.successes[name] = 0; // every success of the history is at turn 0, the first one included
    if (tool.untrusted) taint(name, part.id);
    if (tool.terminal) state.terminatedBy ??= { tool: name, id: part.id };
  }
  return state;
}

/**
 * Whether the results of a server tool are outside-authored, by the name of the use block that
 * asked for them (`web_search`, an MCP tool's name): true taints.
 */
export type ServerResultTrust = (useName: string) => boolean;

/**
 * The taint a model response brings in itself: a result of a server tool the API ran
 * (`web_search_tool_result`, `web_fetch_tool_result`, `mcp_tool_result`, any `*_tool_result`
 * block other than a client's `tool_result`) holds content legate may not vouch for. Its source
 * is the name of the use block whose id it answers (`web_search`), found in `uses` (a use may
 * come in an earlier response than its result), and `untrusted` says which names taint; a result
 * with no use of its own kind is named by its block type and always taints (it fails closed).
 * The model wrote the rest of that response after reading the result, so in a live run it
 * taints before the response's own calls are decided. Every such block is a
 * source, in block order; the first is the run's taint when it has none yet.
 */
export function serverResultTaints(
  blocks: readonly { type: string }[],
  uses: ServerUses,
  untrusted: ServerResultTrust,
): TaintSource[] {
  const found: TaintSource[] = [];
  for (const block of blocks as { type: string; tool_use_id?: unknown }[]) {
    if (!isServerResult(block)) continue;
    const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
    const source = serverResultSource(block, uses);
    if (serverResultUntrusted(source, untrusted)) found.push({ source: source.tool, id });
  }
  return found;
}

/**
 * What makes a history unreadable for the walk, or undefined: a list of `{ role, content }`
 * messages whose tool_use blocks have string ids and names and whose tool_result blocks have a
 * string tool_use_id and a boolean `is_error` if any. Everything else is left to the API.
 */
export function historyShapeProblem(history: unknown): string | undefined {
  if (!Array.isArray(history)) return `it was ${describe(history)}`;
  for (const [i, message] of history.entries()) {
    const where = `history[${i}]`;
    if (typeof message !== 'object' || message === null || (message.role !== 'user' && message.role !== 'assistant')) {
      return `${where} is not a message with role 'user' or 'assistant'`;
    }
    if (typeof message.content === 'string') continue;
    if (!Array.isArray(message.content)) return `${where}.content is neither a string nor a list of blocks`;
    for (const [j, block] of (message.content as unknown[]).entries()) {
      const at = `${where}.content[${j}]`;
      if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string')
        return `${at} is not a content block with a type`;
      const b = block as Record<string, unknown>;
      // The API refuses a tool call in a user turn and a tool result in an assistant turn; read from the wrong turn,
      // a result would be skipped by the guard's reading of the history, and its taint lost.
      const belongsTo = b.type === 'tool_use' ? 'assistant' : b.type === 'tool_result' ? 'user' : message.role;
      if (belongsTo !== message.role) return `${at} is a ${b.type} in a ${message.role} message, not ${belongsTo}`;
      if (b.type === 'tool_use') {
        for (const key of ['id', 'name'])
          if (typeof b[key] !== 'string')
            return `${at} is a tool_use whose '${key}' is ${describe(b[key])}, not a string`;
      }
      if (b.type === 'tool_result') {
        if (typeof b.tool_use_id !== 'string')
          return `${at} is a tool_result whose 'tool_use_id' is ${describe(b.tool_use_id)}, not a string`;
        if (b.is_error !== undefined && typeof b.is_error !== 'boolean')
          return `${at} is a tool_result whose 'is_error' is ${describe(b.is_error)}, not true or false`;
      }
    }
  }
  return undefined;
}

/**
 * The state a run starts from when it continues a conversation: the history's own, made
 * stricter by a state handed on with it (`result.guard` of the run that wrote the history), and
 * never made cleaner by it. Its taint and end stand when the history shows none (a history
 * trimmed of its tool calls); attempts are the larger count; a success counts only if the
 * history shows it too, so a state cannot unlock a prerequisite the conversation never met.
 */
export function mergeGuardStates(fromHistory: GuardState, given: GuardState): GuardState {
  const attempts = copyToolRecord(fromHistory.attempts);
  for (const name of Object.keys(given.attempts))
    attempts[name] = Math.max(toolRecordValue(attempts, name) ?? 0, given.attempts[name]!);
  const successes = emptyToolRecord();
  for (const name of Object.keys(fromHistory.successes)) {
    if (toolRecordValue(given.successes, name) !== undefined) successes[name] = fromHistory.successes[name]!;
  }
  const merged: GuardState = {
    taint: given.taint ?? fromHistory.taint,
    taintSources: [],
    successes,
    attempts,
    terminatedBy: given.terminatedBy ?? fromHistory.terminatedBy,
  };
  // The given state's sources first (it may hold some a trimmed history lost), then the history's others.
  for (const source of [...taintSourcesOf(given), ...taintSourcesOf(fromHistory)]) addTaintSource(merged, source);
  return merged;
}
