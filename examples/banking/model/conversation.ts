import type { MessagesRequest, ToolResultBlock, ToolUseBlock } from '../../../src/index.js';

/** A tool call the scripted model may make. */
export interface Call {
  name: string;
  input: Record<string, unknown>;
}

export function call(name: string, input: Record<string, unknown> = {}): Call {
  return { name, input };
}

/** The model reads the whole recent history at once: one call, shared by every plan that needs it. */
export const HISTORY = call('list_transactions', { n: 20 });
export const SCHEDULE = call('get_scheduled_transactions');

interface Made {
  call: Call;
  key: string;
  result: string | undefined;
  isError: boolean;
}

/**
 * What the scripted model knows: the conversation so far, read as a model reads it. Everything comes from the
 * request (the first user message, the system prompt, the tool calls and their results); nothing from the world.
 */
export class Conversation {
  /** The user's first message. */
  readonly prompt: string;
  /** Today's date, as the system prompt says it. */
  readonly today: string;
  /** Tool calls made so far, in order. */
  readonly calls: number;
  readonly #made: Made[] = [];
  readonly #plain: (text: string) => string;

  /**
   * `plain` takes out of a text what the model reads as instructions to it, leaving the data: what `result` and
   * `json` give (a model tells a planted sentence from the bill it sits in).
   */
  constructor(request: MessagesRequest, plain: (text: string) => string = (text) => text) {
    this.#plain = plain;
    const first = request.messages[0];
    this.prompt = first === undefined ? '' : textOf(first.content);
    const system =
      typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => b.text).join('\n');
    this.today = /\d{4}-\d{2}-\d{2}/.exec(system)?.[0] ?? '1970-01-01';
    const byId = new Map<string, Made>();
    for (const message of request.messages) {
      if (typeof message.content === 'string') continue;
      for (const block of message.content) {
        if (block.type === 'tool_use') {
          const use = block as ToolUseBlock;
          const made: Made = {
            call: call(use.name, use.input as Record<string, unknown>),
            key: '',
            result: undefined,
            isError: false,
          };
          made.key = keyOf(made.call);
          byId.set(use.id, made);
          this.#made.push(made);
        } else if (block.type === 'tool_result') {
          const result = block as ToolResultBlock;
          const made = byId.get(result.tool_use_id);
          if (made === undefined) continue;
          made.result = textOf(result.content ?? '');
          made.isError = result.is_error === true;
        }
      }
    }
    this.calls = this.#made.length;
  }

  /** Whether this exact call was made already (whatever came of it: a refusal is not retried). */
  attempted(wanted: Call): boolean {
    const key = keyOf(wanted);
    return this.#made.some((m) => m.key === key);
  }

  /** The data in the last successful result of this exact call (its text, instructions taken out). */
  result(wanted: Call): string | undefined {
    const text = this.#raw(wanted);
    return text === undefined ? undefined : this.#plain(text);
  }

  /** The data in the last successful result of this exact call, read as JSON (each string's instructions taken out). */
  json(wanted: Call): unknown {
    const text = this.#raw(wanted);
    if (text === undefined) return undefined;
    try {
      return mapStrings(JSON.parse(text), this.#plain);
    } catch {
      return undefined;
    }
  }

  #raw(wanted: Call): string | undefined {
    const key = keyOf(wanted);
    return this.#made.findLast((m) => m.key === key && !m.isError)?.result;
  }

  /** Every piece of text that successful results hold: a JSON result's strings one by one, other results whole. */
  resultTexts(): string[] {
    return this.#made.flatMap((m) => (m.isError || m.result === undefined ? [] : stringsIn(m.result)));
  }
}

function keyOf(c: Call): string {
  return `${c.name}:${JSON.stringify(sorted(c.input))}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}

function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n');
}

function stringsIn(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [text];
  }
  const found: string[] = [];
  mapStrings(parsed, (s) => {
    found.push(s);
    return s;
  });
  return found;
}

function mapStrings(value: unknown, f: (text: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
}
