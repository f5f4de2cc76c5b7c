import { copyPlainData } from '../../json/copyPlainData.js';
import { copyValue } from '../../json/copyValue.js';
import { jsonText } from '../../json/jsonText.js';
import type { Message, MessagesRequest } from '../../messages/types.js';
import { isPlain, KnownMessages } from '../knownMessages.js';

/** What is kept of a message already copied: its copy, and its JSON length once asked. */
interface CopiedMessage {
  copy: Message;
  length: number | undefined;
}

/** A request as the scripted model keeps it: its copy, and the length of its JSON text when asked. */
export interface RequestCopy {
  copy: MessagesRequest;
  /** The length of `JSON.stringify(request)`'s text (undefined where JSON has none), computed when first asked. */
  jsonLength(): number | undefined;
}

/** A tool definition copied: frozen, the same object on every request of an agent, so copied and measured once. */
interface CopiedTool {
  copy: unknown;
  length: number | undefined;
}

/** The parts of a request copied one by one: its messages, and its tools when every definition is frozen. */
interface Parts {
  messages: Message[];
  tools: object[] | undefined;
}

/**
 * Copies of the requests a scripted model receives, each message copied and measured once (see KnownMessages):
 * a run costs time in proportion to its length, not its square. A tool definition frozen (as defineTool makes it,
 * one object for every request) is copied and measured once too. The results are what `copyValue(request)` and
 * `jsonText(request).length` give for the whole request (held to them by
 * test/transport/scriptedLinear.property.test.ts); only a change made inside a block of a message already sent (a
 * field of the block edited in place) is not seen.
 */
export class RequestCopies {
  readonly #messages = new KnownMessages<CopiedMessage>();

  copy(request: MessagesRequest): RequestCopy {
    const parts = partsOf(request);
    if (parts === undefined) return { copy: copyValue(request), jsonLength: () => this.#jsonLength(request) };
    const copy = copyOfRest(request, parts);
    // One look-up a message; those not seen before are copied together (objects they share stay shared).
    const messages: Message[] = [];
    const fresh = new Map<Message, number[]>();
    for (const [i, message] of parts.messages.entries()) {
      const known = this.#messages.get(message, i);
      if (known !== undefined) messages.push(known.copy);
      else {
        messages.push(message);
        fresh.set(message, [...(fresh.get(message) ?? []), i]);
      }
    }
    const copies = copyPlainData([...fresh.keys()]);
    for (const [n, [message, places]] of [...fresh].entries()) {
      const { copy: copied } = this.#messages.set(message, { copy: copies[n]!, length: undefined }, places[0]);
      for (const i of places) messages[i] = copied;
    }
    copy.messages = messages;
    if (parts.tools !== undefined) copy.tools = parts.tools.map((tool) => copiedTool(tool).copy) as never;
    // Measured when asked, after the script's function has seen the request (and may have changed it).
    return { copy, jsonLength: () => this.#jsonLength(request) };
  }

  #jsonLength(request: MessagesRequest): number | undefined {
    const parts = partsOf(request);
    if (parts === undefined) return jsonText(request)?.length;
    // `"messages":[]` (and `"tools":[]`) stand in the text of the rest; the parts' texts and commas go inside.
    const rest = jsonText(withoutParts(request, parts));
    if (rest === undefined) return undefined;
    let length = rest.length + commas(parts.messages) + commas(parts.tools ?? []);
    for (const [place, message] of parts.messages.entries()) {
      const entry = this.#copiedMessage(message, place);
      entry.length ??= (jsonText(message) as string).length;
      length += entry.length;
    }
    for (const tool of parts.tools ?? []) {
      const entry = copiedTool(tool);
      entry.length ??= (jsonText(tool) as string).length;
      length += entry.length;
    }
    return length;
  }

  #copiedMessage(message: Message, place: number): CopiedMessage {
    return (
      this.#messages.get(message, place) ??
      this.#messages.set(message, { copy: copyPlainData(message), length: undefined }, place)
    );
  }
}

/** Frozen tool definitions never change: their copies serve every transport. */
const toolCopies = new WeakMap<object, CopiedTool>();

function copiedTool(tool: object): CopiedTool {
  let entry = toolCopies.get(tool);
  if (entry === undefined) {
    entry = { copy: copyValue(tool), length: undefined };
    toolCopies.set(tool, entry);
  }
  return entry;
}

/**
 * The request without its parts, copied: key by key where every other value is a primitive (as structuredClone
 * copies it, without the cost of a clone), else by copyValue.
 */
function copyOfRest(request: MessagesRequest, parts: Parts): MessagesRequest {
  const copy: Record<string, unknown> = {};
  const fields = request as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (key === 'messages' || (key === 'tools' && parts.tools !== undefined)) {
      copy[key] = [];
      continue;
    }
    const value = fields[key];
    const primitive = value === null || !['object', 'function', 'symbol'].includes(typeof value);
    if (!primitive || key === '__proto__') return copyValue(withoutParts(request, parts));
    copy[key] = value;
  }
  return copy as unknown as MessagesRequest;
}

/** The request's messages (and frozen tools) when the request and each of them is a plain object, else undefined. */
function partsOf(request: MessagesRequest): Parts | undefined {
  const { messages, tools } = request as { messages?: unknown; tools?: unknown };
  if (!isPlain(request) || !Array.isArray(messages)) return undefined;
  for (const message of messages) if (!isPlain(message)) return undefined;
  const frozen = Array.isArray(tools) && tools.every((tool) => isPlain(tool) && Object.isFrozen(tool));
  return { messages: messages as Message[], tools: frozen ? (tools as object[]) : undefined };
}

function withoutParts(request: MessagesRequest, parts: Parts): MessagesRequest {
  return { ...request, messages: [], ...(parts.tools === undefined ? {} : { tools: [] }) };
}

const commas = (list: readonly unknown[]): number => Math.max(0, list.length - 1);
