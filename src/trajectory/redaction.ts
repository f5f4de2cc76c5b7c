import { jsonText } from '../json/jsonText.js';
import { isPlainObject } from '../json/jsonValue.js';
import { compileUserPattern, replaceMatches } from './userPattern.js';
import { UsageError } from '../errors/UsageError.js';

/**
 * A secret to keep out of recordings: every match of a pattern in any text (values and object
 * keys), or the value at a key path (`card.number` matches that path inside any object: a
 * tool's input, a server block, a tool's output written as JSON). Applied when a run is
 * recorded, and the same way to each live request before it is matched.
 */
export type Redaction = { pattern: RegExp | string; placeholder?: string } | { path: string; placeholder?: string };

export const DEFAULT_PLACEHOLDER = '[REDACTED]';

/** Returns a function that redacts a value deeply, leaving the original untouched. */
export function createRedactor(redactions: readonly Redaction[]): <T>(value: T) => T {
  if (redactions.length === 0) return (value) => value;
  const patterns = redactions.filter((r) => 'pattern' in r).map(compilePattern);
  const paths = redactions.filter((r): r is { path: string; placeholder?: string } => 'path' in r).map(compilePath);
  const redactText = (text: string): string => patterns.reduce((current, replace) => replace(current), text);
  const redactString = (text: string): string =>
    paths.length === 0 ? redactText(text) : redactJsonText(redactText(text), paths);
  // Keys and short strings come back again and again (type, text, name; 'string', 'object', 'tool_use'): each is
  // redacted once and remembered (a redaction depends on the text alone), up to a bound, so a value of made-up
  // keys or words cannot make a redactor grow.
  const redactKey = remembered(redactText);
  const redactStringRemembered = remembered(redactString);
  return <T>(value: T) => redactValue(value, redactKey, redactStringRemembered, paths) as T;
}

/** How many distinct texts a redactor remembers the redaction of, keys and strings each, and how long each may be. */
const TEXTS_REMEMBERED = 4096;
const LONGEST_REMEMBERED = 64;

/** `redact`, remembering what it made of each short text (TEXTS_REMEMBERED of them at most). */
function remembered(redact: (text: string) => string): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    if (text.length > LONGEST_REMEMBERED) return redact(text);
    let redacted = known.get(text);
    if (redacted === undefined) {
      redacted = redact(text);
      if (known.size < TEXTS_REMEMBERED) known.set(text, redacted);
    }
    return redacted;
  };
}

/**
 * The redacted copy of a value: strings through `redactString`, object keys through
 * `redactKey`, and every path matched in every object. Walks with a stack of its own, so a
 * value of any depth (a model can send 20,000 levels) is redacted without a `RangeError`.
 * A value that contains itself is refused with a TypeError, as JSON refuses it.
 */
function redactValue(
  value: unknown,
  redactKey: (key: string) => string,
  redactString: (text: string) => string,
  paths: readonly RedactionPath[],
): unknown {
  const leaf = (inner: unknown): unknown => (typeof inner === 'string' ? redactString(inner) : inner);
  if (!Array.isArray(value) && !isPlainObject(value)) return leaf(value);
  /** Objects in the order they were opened: each one's descendants come after it. */
  const objects: Record<string, unknown>[] = [];
  const ancestors = new Set<object>();
  type Task = { source: object; target: Record<string, unknown> | unknown[] } | { leave: object };
  const tasks: Task[] = [];
  const open = (source: object): Record<string, unknown> | unknown[] => {
    if (ancestors.has(source)) throw new TypeError('A value to redact contains itself, so it cannot be written.');
    const target: Record<string, unknown> | unknown[] = Array.isArray(source) ? new Array<unknown>(source.length) : {};
    if (!Array.isArray(target)) objects.push(target);
    tasks.push({ leave: source }, { source, target });
    return target;
  };
  const copyOf = (inner: unknown): unknown =>
    Array.isArray(inner) || isPlainObject(inner) ? open(inner) : leaf(inner);
  const root = open(value);
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ('leave' in task) {
      ancestors.delete(task.leave);
      continue;
    }
    const { source, target } = task;
    ancestors.add(source);
    if (Array.isArray(source)) {
      const items = target as unknown[];
      for (let i = 0; i < source.length; i++) if (i in source) items[i] = copyOf(source[i]);
      continue;
    }
    const copy = target as Record<string, unknown>;
    const entries = Object.entries(source);
    const redactedKeys = entries.map(([key]) => redactKey(key));
    if (redactedKeys.every((key, i) => key === entries[i]![0])) {
      for (const [key, inner] of entries) define(copy, key, copyOf(inner));
      continue;
    }
    // A key left as it was keeps its name; a redacted key that would take another's is numbered.
    const kept = new Set(entries.filter(([key], i) => redactedKeys[i] === key).map(([key]) => key));
    for (const [i, [key, inner]] of entries.entries()) {
      define(copy, redactedKeys[i] === key ? key : freeKey(copy, kept, redactedKeys[i]!), copyOf(inner));
    }
  }
  // Every object is visited, so a path matches wherever it starts; an object's descendants
  // are redacted before it, as a recursive walk would do it.
  for (let i = objects.length - 1; i >= 0; i--)
    for (const { keys, placeholder } of paths) replaceAt(objects[i]!, keys, placeholder);
  return root;
}

interface RedactionPath {
  keys: string[];
  placeholder: string;
}

function compilePattern(redaction: Redaction): (text: string) => string {
  const { pattern: source, placeholder = DEFAULT_PLACEHOLDER } = redaction as {
    pattern: RegExp | string;
    placeholder?: string;
  };
  const pattern = compileUserPattern(source);
  return (text) => replaceMatches(pattern, text, placeholder);
}

function compilePath(redaction: { path: string; placeholder?: string }): RedactionPath {
  const keys = redaction.path.split('.').filter((part) => part !== '');
  if (keys.length === 0)
    throw new UsageError(
      'invalid_redaction_path',
      `A redaction path must name at least one key, but it was '${redaction.path}'.`,
    );
  return { keys, placeholder: redaction.placeholder ?? DEFAULT_PLACEHOLDER };
}

/** A name for a redacted key that no other key has or will have: `[REDACTED] (2)` when `[REDACTED]` is taken. */
function freeKey(object: Record<string, unknown>, kept: Set<string>, key: string): string {
  const taken = (name: string) => Object.hasOwn(object, name) || kept.has(name);
  if (!taken(key)) return key;
  let n = 2;
  while (taken(`${key} (${n})`)) n++;
  return `${key} (${n})`;
}

function replaceAt(object: Record<string, unknown>, keys: string[], placeholder: string): boolean {
  let current: unknown = object;
  for (let i = 0; i < keys.length - 1; i++) {
    if (!isPlainObject(current) || !Object.hasOwn(current, keys[i]!)) return false;
    current = current[keys[i]!];
  }
  const last = keys[keys.length - 1]!;
  if (!isPlainObject(current) || !Object.hasOwn(current, last)) return false;
  define(current, last, placeholder);
  return true;
}

/**
 * A tool's object output reaches the conversation as JSON text; key paths reach inside it. The
 * text is rewritten (as compact JSON, the way a tool's output is rendered) only when a path
 * matched, so other text is left byte for byte.
 */
function redactJsonText(text: string, paths: readonly RedactionPath[]): string {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  // JSON.parse reads any depth; the objects are listed with a stack of our own, then each one's
  // paths are replaced after its descendants', as a recursive walk would do it.
  const objects: Record<string, unknown>[] = [];
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    else if (isPlainObject(value)) {
      objects.push(value);
      const members = Object.values(value);
      for (let i = members.length - 1; i >= 0; i--) stack.push(members[i]);
    }
  }
  let hit = false;
  for (let i = objects.length - 1; i >= 0; i--)
    for (const { keys, placeholder } of paths) hit = replaceAt(objects[i]!, keys, placeholder) || hit;
  return hit ? jsonText(parsed)! : text;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Redactor = <T>(value: T) => T;

/**
 * Redacts what a run said: the input, the system prompt, every turn (sub-runs included) and
 * every handoff target's entry in `agents` (its name, request and tools, as a sub-run's are).
 * The file's own name, description, agent, model and tools are its metadata: not redacted,
 * but scanned before a save like everything else.
 */
export function redactTrajectory<
  T extends { input: unknown; request: { system?: string }; agents?: unknown; turns: unknown[] },
>(redact: Redactor, trajectory: T): T {
  const request = { ...trajectory.request };
  if (request.system !== undefined) request.system = redact(request.system);
  const copy = { ...trajectory, input: redact(trajectory.input), request, turns: redact(trajectory.turns) };
  if (trajectory.agents !== undefined) copy.agents = redact(trajectory.agents);
  return copy;
}

/** Redacts a live request the same way, before it is compared with a redacted recording. */
export function redactRequest<T extends { system?: unknown; messages: unknown[] }>(redact: Redactor, request: T): T {
  const copy = { ...request, messages: redact(request.messages) };
  if (request.system !== undefined) copy.system = redact(request.system) as T['system'];
  return copy;
}
