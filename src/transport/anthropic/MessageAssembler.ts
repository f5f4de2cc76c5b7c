import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { type StreamEvent, TransportError } from '../transport.js';

type Json = Record<string, unknown>;

/**
 * Builds the message a Messages API stream stands for, event by event, as the API would have sent it whole:
 * every field of `message_start`, each block's deltas applied, every field of `message_delta` (stop reason,
 * `stop_details`, `container`, `context_management`, usage counters: cumulative, so a later count replaces an
 * earlier one) kept as it came. It checks the stream as it goes: an event out of order, a delta for a block that
 * is not open, a delta type it cannot apply, tool input that is not JSON, or a stream that ends before
 * `message_stop` is a {@link TransportError} of kind `stream`, never a guess. Unknown event types are skipped,
 * as the API's streaming documentation asks.
 *
 * A block that takes input (`tool_use`, `server_tool_use`, `mcp_tool_use`, ...) still open at `message_stop` was
 * cut off by `max_tokens`: its `input` stays what `content_block_start` gave, and the JSON text that did arrive
 * is the message's `incompleteToolUse`.
 */
export class MessageAssembler {
  #message: Json | undefined;
  readonly #content: Json[] = [];
  /** Open blocks by index; for a block that takes input, the JSON text received so far. */
  readonly #open = new Map<number, { json: string | undefined }>();
  #stopped = false;
  #events = 0;

  /** Applies one event of the stream; returns what it means for an observer. */
  add(event: unknown): StreamEvent[] {
    this.#events++;
    if (!isPlainObject(event) || typeof event.type !== 'string')
      return this.#broken(`event ${this.#events} is ${describeValue(event)}, not an object with a "type"`);
    const type = event.type;
    if (!KNOWN_EVENTS.has(type)) return []; // a ping, or a type added since (the API asks clients to skip them)
    if (this.#stopped) return this.#broken(`a ${type} event arrived after message_stop`);
    if (type === 'message_start') return this.#start(event);
    const message = this.#message;
    if (message === undefined) return this.#broken(`a ${type} event arrived before message_start`);
    switch (type) {
      case 'content_block_start':
        return this.#blockStart(event);
      case 'content_block_delta':
        return this.#delta(event);
      case 'content_block_stop':
        return this.#blockStop(event);
      case 'message_delta':
        this.#messageDelta(message, event);
        return [];
      case 'message_stop':
        this.#stopped = true;
        return [];
      default:
        return [];
    }
  }

  /** The whole message, once the stream has ended. */
  finish(): Json {
    if (this.#message === undefined) return this.#broken('the stream ended before message_start: no message arrived');
    if (!this.#stopped) {
      const open = [...this.#open.keys()];
      const where = open.length === 0 ? '' : ` while block ${open.join(', ')} was open`;
      return this.#broken(`the stream ended after ${count(this.#events, 'event')}${where}, before message_stop`);
    }
    const message: Json = { ...this.#message, content: this.#content };
    for (const [index, { json }] of this.#open) {
      if (json !== undefined) message.incompleteToolUse = { index, partialJson: json };
    }
    return message;
  }

  #start(event: Json): StreamEvent[] {
    if (this.#message !== undefined)
      return this.#broken('a second message_start arrived before message_stop: two messages in one stream');
    const message = event.message;
    if (!isPlainObject(message) || !Array.isArray(message.content) || !isPlainObject(message.usage))
      return this.#broken(`message_start holds ${describeValue(message)}, not a message with content and usage`);
    this.#message = { ...message, usage: { ...message.usage } };
    for (const block of message.content) this.#content.push(isPlainObject(block) ? { ...block } : block);
    return [];
  }

  #blockStart(event: Json): StreamEvent[] {
    const index = event.index;
    const block = event.content_block;
    if (index !== this.#content.length)
      return this.#broken(
        `content_block_start for block ${indexText(index)}; the next block is ${this.#content.length}`,
      );
    if (!isPlainObject(block) || typeof block.type !== 'string')
      return this.#broken(`content_block_start ${index} holds ${describeValue(block)}, not a block with a type`);
    const open = [...this.#open.keys()];
    if (open.length > 0) return this.#broken(`block ${index} started while block ${open.join(', ')} was still open`);
    this.#content.push({ ...block });
    this.#open.set(index, { json: 'input' in block ? '' : undefined });
    const started: { type: string; id?: string; name?: string } = { type: block.type };
    if (typeof block.id === 'string') started.id = block.id;
    if (typeof block.name === 'string') started.name = block.name;
    return [{ type: 'block_start', index, block: started }];
  }

  #delta(event: Json): StreamEvent[] {
    const { index, delta } = event;
    const block = this.#openBlock(index, 'content_block_delta');
    if (!isPlainObject(delta) || typeof delta.type !== 'string')
      return this.#broken(`the delta for block ${index} is ${describeValue(delta)}, not an object with a type`);
    const i = index as number;
    const mismatch = (): never =>
      this.#broken(`a ${delta.type} arrived for block ${i}, which is a ${String(block.type)} block`);
    switch (delta.type) {
      case 'text_delta':
        if (block.type !== 'text') return mismatch();
        block.text = (typeof block.text === 'string' ? block.text : '') + this.#string(delta, 'text', i);
        return [{ type: 'text_delta', index: i, text: delta.text as string }];
      case 'citations_delta':
        if (block.type !== 'text') return mismatch();
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return [];
      case 'thinking_delta':
        if (block.type !== 'thinking') return mismatch();
        block.thinking =
          (typeof block.thinking === 'string' ? block.thinking : '') + this.#string(delta, 'thinking', i);
        return [{ type: 'thinking_delta', index: i, thinking: delta.thinking as string }];
      case 'signature_delta':
        if (block.type !== 'thinking') return mismatch();
        block.signature = this.#string(delta, 'signature', i);
        return [];
      case 'input_json_delta': {
        const open = this.#open.get(i)!;
        if (open.json === undefined) return mismatch();
        open.json += this.#string(delta, 'partial_json', i);
        return [{ type: 'input_json_delta', index: i, partialJson: delta.partial_json as string }];
      }
      case 'compaction_delta':
        // The delta carries the block's final value: its fields replace the block's.
        if (block.type !== 'compaction') return mismatch();
        for (const [key, value] of Object.entries(delta)) if (key !== 'type') setField(block, key, value);
        return [];
      default:
        return this.#broken(
          `a ${delta.type} arrived for block ${i}: a delta legate cannot apply, so the block cannot be ` +
            'assembled. Send without streaming (new AnthropicTransport({ stream: false })) to receive it whole',
        );
    }
  }

  #blockStop(event: Json): StreamEvent[] {
    const index = event.index;
    const block = this.#openBlock(index, 'content_block_stop');
    const i = index as number;
    const { json } = this.#open.get(i)!;
    this.#open.delete(i);
    if (json !== undefined && json !== '') {
      try {
        block.input = JSON.parse(json);
      } catch (error) {
        return this.#broken(
          `the input of block ${i} (${String(block.type)} ${String(block.name)}) is not JSON: ` +
            (error as Error).message,
        );
      }
    }
    return [{ type: 'block_stop', index: i }];
  }

  #messageDelta(message: Json, event: Json): void {
    const { delta, usage } = event;
    if (isPlainObject(delta)) for (const [key, value] of Object.entries(delta)) setField(message, key, value);
    if (isPlainObject(usage)) {
      const counted = message.usage as Json;
      // Counts in message_delta are totals for the message: they replace the ones message_start gave.
      for (const [key, value] of Object.entries(usage))
        if (value !== null || !Object.hasOwn(counted, key)) setField(counted, key, value);
    }
    for (const [key, value] of Object.entries(event)) if (!DELTA_EVENT_KEYS.has(key)) setField(message, key, value);
  }

  #openBlock(index: unknown, event: string): Json {
    if (typeof index !== 'number' || !this.#open.has(index)) {
      const state =
        typeof index === 'number' && index >= 0 && index < this.#content.length ? 'already stopped' : 'never started';
      return this.#broken(`a ${event} arrived for block ${indexText(index)}, which ${state}`);
    }
    return this.#content[index]!;
  }

  #string(delta: Json, key: string, index: number): string {
    const value = delta[key];
    if (typeof value !== 'string')
      return this.#broken(
        `the ${String(delta.type)} for block ${index} has ${key} ${describeValue(value)}, not a string`,
      );
    return value;
  }

  #broken(what: string): never {
    throw new TransportError(
      `The Anthropic API's stream is not a whole message: ${what}. Nothing of this response was used; ` +
        'send the request again.',
      undefined,
      undefined,
      { kind: 'stream' },
    );
  }
}

const KNOWN_EVENTS = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);

const DELTA_EVENT_KEYS = new Set(['type', 'delta', 'usage']);

function indexText(index: unknown): string {
  return typeof index === 'number' ? String(index) : describeValue(index);
}

function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? '' : 's'}`;
}

/** Sets a field as its own data property, whatever its name (`__proto__` included): the API's fields are data. */
function setField(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
