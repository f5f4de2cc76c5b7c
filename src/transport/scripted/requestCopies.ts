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
    const parts = requestPartsOf(request);
    const messages = parts === undefined ? undefined : this.#messagesOf(parts.messages);
    if (parts === undefined || messages === undefined)
      return { copy: copyValue(request), jsonLength: () => this.#jsonLength(request) };
    const copy = copyOfRest(request, parts);
    copy.messages = messages;
    if (parts.tools !== undefined) copy.tools = parts.tools.map((tool) => copiedTool(tool).copy) as never;
    // Measured when asked, after the script's function has seen the request (and may have changed it).
    return { copy, jsonLength: () => this.#jsonLength(request) };
  }

  /**
   * The copies of a request's messages: one look-up a message, a pointer comparison for most (see KnownMessages);
   * those not seen before are copied together (objects they share stay shared). Undefined when one of those is not
   * a plain object: the whole request is copied as one then. A message seen before was plain when it was seen.
   */
  #messagesOf(live: readonly Message[]): Message[] | undefined {
    const messages: Message[] = [];
    /** The places of the messages not seen before. */
    let fresh: number[] | undefined;
    for (let i = 0; i < live.length; i++) {
      const message = live[i]!;
      const known = this.#messages.get(message, i);
      if (known !== undefined) messages.push(known.copy);
      else if (!isPlain(message)) return undefined;
      else {
        messages.push(message);
        fresh ??= [];
        fresh.push(i);
      }
    }
    if (fresh === undefined) return messages;
    // A message may stand at several places: it is copied once, each place gets that copy, the first is remembered.
    const firstPlace = new Map<Message, number>();
    for (const i of fresh) if (!firstPlace.has(live[i]!)) firstPlace.set(live[i]!, i);
    const copies = copyPlainData([...firstPlace.keys()]);
    const copyOf = new Map<Message, Message>();
    let n = 0;
    for (const [message, place] of firstPlace) {
      copyOf.set(message, copies[n]!);
      this.#messages.set(message, { copy: copies[n++]!, length: undefined }, place);
    }
    for (const i of fresh) messages[i] = copyOf.get(live[i]!)!;
    return messages;
  }

  #jsonLength(request: MessagesRequest): number | undefined {
    const parts = requestPartsOf(request);
    if (parts === undefined) return jsonText(request)?.length;
    // `"messages":[]` (and `"tools":[]`) stand in the text of the rest; the parts' texts and commas go inside.
    const rest = jsonText(withoutParts(request, parts));
    if (rest === undefined) return undefined;
    let length = rest.length + commas(parts.messages) + commas(parts.tools ?? []);
    const { messages } = parts;
    for (let place = 0; place < messages.length; place++) {
      const entry = this.#copiedMessage(messages[place]!, place);
      // A message of another kind than a plain object: the whole request is measured as one.
      if (entry === undefined) return jsonText(request)?.length;
      entry.length ??= (jsonText(messages[place]) as string).length;
      length += entry.length;
    }
    for (const tool of parts.tools ?? []) {
      const entry = copiedTool(tool);
      entry.length ??= (jsonText(tool) as string).length;
      length += entry.length;
    }
    return length;
  }

  /** What is kept of a message (a message not seen before is copied and kept now); undefined for one not plain. */
  #copiedMessage(message: Message, place: number): CopiedMessage | undefined {
    const known = this.#messages.get(message, place);
    if (known !== undefined) return known;
    if (!isPlain(message)) return undefined;
    return this.#messages.set(message, { copy: copyPlainData(message), length: undefined }, place);
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

/**
 * The request's messages (and frozen tools) when the request is a plain object holding a list of messages, else
 * undefined. Whether each message is plain is for the caller to see: a message seen before need not be looked at.
 */
function requestPartsOf(request: MessagesRequest): Parts | undefined {
  const { messages, tools } = request as { messages?: unknown; tools?: unknown };
  if (!isPlain(request) || !Array.isArray(messages)) return undefined;
  const frozen = Array.isArray(tools) && tools.every((tool) => isPlain(tool) && Object.isFrozen(tool));
  return { messages: messages as Message[], tools: frozen ? (tools as object[]) : undefined };
}

function withoutParts(request: MessagesRequest, parts: Parts): MessagesRequest {
  return { ...request, messages: [], ...(parts.tools === undefined ? {} : { tools: [] }) };
}

const commas = (list: readonly unknown[]): number => Math.max(0, list.length - 1);
