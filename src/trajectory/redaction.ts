import { isPlainObject } from '../json/jsonValue.js';
import { compileUserPattern } from './userPattern.js';

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
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return paths.length === 0 ? redactText(value) : redactJsonText(redactText(value), paths);
    if (Array.isArray(value)) return value.map(redact);
    if (!isPlainObject(value)) return value;
    const entries = Object.entries(value);
    const redactedKeys = entries.map(([key]) => redactText(key));
    // A key left as it was keeps its name; a redacted key that would take another's is numbered.
    const kept = new Set(entries.filter(([key], i) => redactedKeys[i] === key).map(([key]) => key));
    const copy: Record<string, unknown> = {};
    entries.forEach(([key, inner], i) => define(copy, redactedKeys[i] === key ? key : freeKey(copy, kept, redactedKeys[i]!), redact(inner)));
    // Every object is visited, so a path matches wherever it starts.
    for (const { keys, placeholder } of paths) replaceAt(copy, keys, placeholder);
    return copy;
  };
  return <T>(value: T) => redact(value) as T;
}

function compilePattern(redaction: Redaction): (text: string) => string {
  const { pattern: source, placeholder = DEFAULT_PLACEHOLDER } = redaction as { pattern: RegExp | string; placeholder?: string };
  const pattern = compileUserPattern(source);
  return (text) => text.replace(pattern, placeholder);
}

function compilePath(redaction: { path: string; placeholder?: string }): { keys: string[]; placeholder: string } {
  const keys = redaction.path.split('.').filter((part) => part !== '');
  if (keys.length === 0) throw new TypeError(`A redaction path must name at least one key, but it was '${redaction.path}'.`);
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
function redactJsonText(text: string, paths: { keys: string[]; placeholder: string }[]): string {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  let hit = false;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isPlainObject(value)) {
      for (const inner of Object.values(value)) visit(inner);
      for (const { keys, placeholder } of paths) hit = replaceAt(value, keys, placeholder) || hit;
    }
  };
  visit(parsed);
  return hit ? JSON.stringify(parsed) : text;
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
export function redactTrajectory<T extends { input: unknown; request: { system?: string }; agents?: unknown; turns: unknown[] }>(redact: Redactor, trajectory: T): T {
  const request = { ...trajectory.request };
  if (request.system !== undefined) request.system = redact(request.system);
  const copy = { ...trajectory, input: redact(trajectory.input), request, turns: redact(trajectory.turns) };
  if (trajectory.agents !== undefined) copy.agents = redact(trajectory.agents);
  return copy;
}

/** Redacts a live request the same way, before it is compared with a redacted recording. */
export function redactRequest<T extends { system?: string; messages: unknown[] }>(redact: Redactor, request: T): T {
  const copy = { ...request, messages: redact(request.messages) };
  if (request.system !== undefined) copy.system = redact(request.system);
  return copy;
}
