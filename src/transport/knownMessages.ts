import type { Message } from '../messages/types.js';

/** What is kept of a message seen: what it held when seen, and what was made of it then. */
interface Known<T> {
  role: unknown;
  content: unknown;
  /** The blocks the content list held, by object: a block added, removed or replaced makes the message new. */
  blocks: readonly unknown[] | undefined;
  value: T;
}

/**
 * Something made of each message once (its copy, its JSON length), kept by the message object. A conversation
 * grows by messages appended to it, and a message sent is never changed afterwards (the run loop appends new
 * message objects and never edits one in place), so what was made of a message seen before (the same object,
 * with the same role, the same content list holding the same blocks) still holds: a transport that keeps every
 * request costs time in proportion to the conversation's length, not its square. Only a change made inside a
 * block of a message already sent (a field of the block edited in place) is not seen.
 */
export class KnownMessages<T> {
  readonly #known = new WeakMap<object, Known<T>>();
  /**
   * By place in the conversation, the message last met there and what is known of it: a conversation's messages
   * keep their places from request to request, so most are found by a pointer comparison, not a look-up.
   */
  readonly #placed: (Message | undefined)[] = [];
  readonly #placedKnown: (Known<T> | undefined)[] = [];

  /** What was made of the message when it was seen, if it is unchanged since; `place`: its index in the request. */
  get(message: Message, place?: number): T | undefined {
    const known =
      place !== undefined && this.#placed[place] === message ? this.#placedKnown[place] : this.#known.get(message);
    if (known === undefined || !isUnchanged(known, message)) return undefined;
    if (place !== undefined) this.#place(place, message, known);
    return known.value;
  }

  /** Keeps what was made of the message; returns it. */
  set(message: Message, value: T, place?: number): T {
    const { content } = message;
    const blocks = Array.isArray(content) ? [...content] : undefined;
    // Only a message of exactly a role and content is remembered: a key added later could not be seen.
    if (!hasOnlyRoleAndContent(message)) return value;
    const known = { role: message.role, content, blocks, value };
    this.#known.set(message, known);
    if (place !== undefined) this.#place(place, message, known);
    return value;
  }

  #place(place: number, message: Message, known: Known<T>): void {
    this.#placed[place] = message;
    this.#placedKnown[place] = known;
  }
}

function isUnchanged(known: Known<unknown>, message: Message): boolean {
  if (known.role !== message.role || known.content !== message.content) return false;
  const { blocks } = known;
  if (blocks === undefined) return true;
  const content = message.content as readonly unknown[];
  if (content.length !== blocks.length) return false;
  for (let i = 0; i < blocks.length; i++) if (content[i] !== blocks[i]) return false;
  return true;
}

function hasOnlyRoleAndContent(message: object): boolean {
  const keys = Object.keys(message);
  return (
    keys.length === 2 &&
    keys.includes('role') &&
    keys.includes('content') &&
    Object.getOwnPropertySymbols(message).length === 0
  );
}

/** A plain object: one JSON writes as its own keys, with no toJSON of its own. */
export function isPlain(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && !('toJSON' in value);
}
