import type { Difference } from '../json/firstDifference.js';
import { isPlainObject } from '../json/jsonValue.js';

/**
 * Compares each request's header (its parameters and tools: all of the request but its conversation) with the
 * recorded one once per change. A run's requests nearly always repeat the last one's header: against the same
 * recorded header (a replay shares one between the turns of an agent), the same values under the same keys, or new
 * lists and mappings of the same values (the runtime builds a request's tool list and its parameters' small
 * mappings afresh each turn, of the same tool definitions and words). The runtime never changes a value once sent,
 * as for the messages (VerifiedConversation). So when every part but `messages` is, in the same key order, the very
 * value of the request last found equal (`Object.is`), or a list or plain mapping holding the very values that
 * part's list or mapping held then (one level: what is inside those values is the same by the rule above), the
 * request is equal again and the comparison is not made. Any other change compares the whole header again.
 */
export class VerifiedHeader {
  /** The recorded header the last request was found equal to. */
  #expected: object | undefined;
  /** That request's parts but its conversation, as they were then: key, then its Part. */
  #parts: unknown[] = [];

  /**
   * `difference()` (the whole header's comparison), unless `request` repeats, part for part, the request last found
   * equal to `expected`: then undefined, as the comparison would say.
   */
  compare(expected: object, request: object, difference: () => Difference | undefined): Difference | undefined {
    if (expected === this.#expected && sameParts(this.#parts, request)) return undefined;
    const found = difference();
    this.#expected = found === undefined ? expected : undefined;
    this.#parts = found === undefined ? partsOf(request) : [];
    return found;
  }
}

/** A part as it was: a value kept by identity, or the items of a list, or the keys and values of a plain mapping. */
type Part = { value: unknown } | { items: unknown[] } | { entries: unknown[] };

function partOf(value: unknown): Part {
  if (Array.isArray(value)) return { items: value.slice() };
  if (isPlainObject(value)) return { entries: Object.entries(value).flat() };
  return { value };
}

function samePart(kept: unknown, value: unknown): boolean {
  const part = kept as Part;
  if ('value' in part) return Object.is(part.value, value);
  if ('items' in part) {
    const { items } = part;
    if (!Array.isArray(value) || value.length !== items.length) return false;
    for (let i = 0; i < items.length; i++) if (!Object.is(items[i], value[i])) return false;
    return true;
  }
  return isPlainObject(value) && sameEntries(part.entries, value);
}

function partsOf(request: object): unknown[] {
  const parts: unknown[] = [];
  for (const [key, value] of Object.entries(request)) if (key !== 'messages') parts.push(key, partOf(value));
  return parts;
}

function sameParts(parts: readonly unknown[], request: object): boolean {
  return sameKeyed(parts, request as Record<string, unknown>, samePart, 'messages');
}

/** Whether a plain mapping holds, in the same key order, the keys and very values of `entries` (key, value, ...). */
function sameEntries(entries: readonly unknown[], value: Record<string, unknown>): boolean {
  return sameKeyed(entries, value, Object.is);
}

/**
 * Whether `object`'s own enumerable keys (but `skipped`) are those of `flat` (key, kept, key, kept, ...), in order,
 * each value the `same` as what was kept.
 */
function sameKeyed(
  flat: readonly unknown[],
  object: Record<string, unknown>,
  same: (kept: unknown, value: unknown) => boolean,
  skipped?: string,
): boolean {
  let i = 0;
  for (const key in object) {
    if (key === skipped || !Object.hasOwn(object, key)) continue;
    if (flat[i] !== key || !same(flat[i + 1], object[key])) return false;
    i += 2;
  }
  return i === flat.length;
}
