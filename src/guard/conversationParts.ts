import type { Message } from '../messages/types.js';

/** A piece of a conversation that may hold a value: who wrote it decides whether it is trusted. */
type ConversationPart =
  /** A tool_use of an assistant message (a call the model made), in block order. */
  | { kind: 'call'; id: string; name: string }
  /** Text a user message holds itself (its string content or a text block), not a tool result. */
  | { kind: 'user text'; text: string }
  /**
   * A tool_result, with the tool_use it answers: `tool` is undefined when it cannot be attributed.
   * `inputs` holds the input of each tool_use of that id (one, unless two calls shared an id).
   */
  | { kind: 'result'; id: string; tool: string | undefined; inputs: unknown[]; isError: boolean; content: unknown }
  /** A server tool's result in an assistant message, with the server tool it answers (or its block type). */
  | ({ kind: 'server result'; id: string; content: unknown } & ServerResultSource);

/**
 * The parts of a conversation, in order: the one pairing of results with calls, which the guard state
 * of a history (`guardStateOfHistory`) and provenance both read. A tool_result answers a tool_use of
 * the assistant message just before its user message (the API's own pairing); one whose id no tool_use
 * there has, or that two tool_uses of different names share, is unattributed. A server tool result
 * (a `*_tool_result` block other than `tool_result`) answers the use block of its id anywhere in the
 * conversation; without one it is named by its block type. Assistant text is no part: the model may
 * have copied it from anywhere.
 */
export function conversationParts(messages: readonly Message[]): ConversationPart[] {
  const parts: ConversationPart[] = [];
  const serverUses = serverUsesOf(messages);
  let uses = new Map<string, { name: string | null; inputs: unknown[] }>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      uses = new Map();
      // An assistant message of plain text (a history may hold one) has no calls and no results.
      const blocks = typeof message.content === 'string' ? [] : message.content;
      for (const block of blocks as { type: string; [key: string]: unknown }[]) {
        if (block.type === 'tool_use') {
          const { id, name, input } = block as unknown as { id: string; name: string; input: unknown };
          parts.push({ kind: 'call', id, name });
          const known = uses.get(id);
          if (known === undefined) uses.set(id, { name, inputs: [input] });
          else uses.set(id, { name: known.name === name ? name : null, inputs: [...known.inputs, input] });
        } else if (isServerResult(block)) {
          const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
          parts.push({ kind: 'server result', id, ...serverResultSource(block, serverUses), content: block.content });
        }
      }
      continue;
    }
    if (typeof message.content === 'string') {
      parts.push({ kind: 'user text', text: message.content });
      uses = new Map();
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'text') parts.push({ kind: 'user text', text: block.text });
      if (block.type !== 'tool_result') continue;
      const use = uses.get(block.tool_use_id);
      parts.push({
        kind: 'result',
        id: block.tool_use_id,
        tool: typeof use?.name === 'string' ? use.name : undefined,
        inputs: use?.inputs ?? [],
        isError: block.is_error === true,
        content: block.content,
      });
    }
    uses = new Map();
  }
  return parts;
}

/** A server tool use (`server_tool_use`, `mcp_tool_use`): its name, and the type of result block that answers it. */
interface ServerUse {
  name: string;
  answeredBy: string;
}

/** Server tool uses by id: the name each result is attributed to, and the kind of result that may answer it. */
export function serverUsesOf(messages: readonly Message[]): Map<string, ServerUse> {
  const uses = new Map<string, ServerUse>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content as { type: string; id?: unknown; name?: unknown }[]) {
      // A client's `tool_use` does not end in `_tool_use`: it is no server use.
      if (!block.type.endsWith('_tool_use')) continue;
      if (typeof block.id !== 'string' || typeof block.name !== 'string') continue;
      uses.set(block.id, { name: block.name, answeredBy: resultTypeOf(block.type, block.name) });
    }
  }
  return uses;
}

/**
 * The result block type the API answers a use with: `mcp_tool_result` for an `mcp_tool_use`; for a server tool,
 * its name's (`web_fetch_tool_result`), tool search's two variants sharing `tool_search_tool_result`.
 */
function resultTypeOf(useType: string, name: string): string {
  if (useType === 'mcp_tool_use') return 'mcp_tool_result';
  return name.startsWith('tool_search_tool') ? 'tool_search_tool_result' : `${name}_tool_result`;
}

/** Whom a server tool result answers: the use's name when paired, else the result's own block type. */
interface ServerResultSource {
  tool: string;
  /** Whether a use of the result's own kind has its id. */
  paired: boolean;
}

/**
 * Whom a server tool result answers: the use of its id when that use is of the result's own kind (a
 * `web_fetch_tool_result` answers a `web_fetch` use). A result cannot borrow the trust of a use of another kind (a
 * web fetch's result with a tool search's id), and one with no use is named by its own type: both unpaired.
 */
export function serverResultSource(
  block: { type: string; tool_use_id?: unknown },
  uses: ServerUses,
): ServerResultSource {
  // Ids are strings: the map holds nothing under any other key (a missing or malformed id).
  const use = (uses as ReadonlyMap<unknown, ServerUse>).get(block.tool_use_id);
  const paired = use !== undefined && use.answeredBy === block.type;
  return { tool: paired ? use.name : block.type, paired };
}

/** Whether a server tool result is outside-authored: an unpaired one always is (it fails closed); else by its use. */
export function serverResultUntrusted(source: ServerResultSource, untrusted: (useName: string) => boolean): boolean {
  return !source.paired || untrusted(source.tool);
}

export type ServerUses = ReadonlyMap<string, ServerUse>;

/** A result of a server tool the API ran (`web_search_tool_result`, ...), not a client's `tool_result`. */
export function isServerResult(block: { type: string }): boolean {
  // A client's `tool_result` does not end in `_tool_result`.
  return block.type.endsWith('_tool_result');
}
