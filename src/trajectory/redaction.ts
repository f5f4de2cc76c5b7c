import { isPlainObject } from '../json/jsonValue.js';

/**
 * A secret to keep out of recordings: every match of a pattern in any text, or the value at a
 * key path (`card.number` matches that path inside any object: a tool's input, a server block).
 * Applied when a run is recorded, and the same way to each live request before it is matched.
 */
export type Redaction = { pattern: RegExp | string; placeholder?: string } | { path: string; placeholder?: string };

export const DEFAULT_PLACEHOLDER = '[REDACTED]';

/** Returns a function that redacts a value deeply, leaving the original untouched. */
export function createRedactor(redactions: readonly Redaction[]): <T>(value: T) => T {
  if (redactions.length === 0) return (value) => value;
  const patterns = redactions.filter((r) => 'pattern' in r).map(compilePattern);
  const paths = redactions.filter((r): r is { path: string; placeholder?: string } => 'path' in r).map(compilePath);
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return patterns.reduce((text, replace) => replace(text), value);
    if (Array.isArray(value)) return value.map(redact);
    if (!isPlainObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) define(copy, key, redact(inner));
    // Every object is visited, so a path matches wherever it starts.
    for (const { keys, placeholder } of paths) replaceAt(copy, keys, placeholder);
    return copy;
  };
  return <T>(value: T) => redact(value) as T;
}

function compilePattern(redaction: Redaction): (text: string) => string {
  const { pattern: source, placeholder = DEFAULT_PLACEHOLDER } = redaction as { pattern: RegExp | string; placeholder?: string };
  const flags = source instanceof RegExp ? source.flags.replace('g', '') : '';
  const pattern = new RegExp(source instanceof RegExp ? source.source : source, `${flags}g`);
  return (text) => text.replace(pattern, placeholder);
}

function compilePath(redaction: { path: string; placeholder?: string }): { keys: string[]; placeholder: string } {
  const keys = redaction.path.split('.').filter((part) => part !== '');
  if (keys.length === 0) throw new TypeError(`A redaction path must name at least one key, but it was '${redaction.path}'.`);
  return { keys, placeholder: redaction.placeholder ?? DEFAULT_PLACEHOLDER };
}

function replaceAt(object: Record<string, unknown>, keys: string[], placeholder: string): void {
  let current: unknown = object;
  for (let i = 0; i < keys.length - 1; i++) {
    if (!isPlainObject(current) || !Object.hasOwn(current, keys[i]!)) return;
    current = current[keys[i]!];
  }
  const last = keys[keys.length - 1]!;
  if (isPlainObject(current) && Object.hasOwn(current, last)) define(current, last, placeholder);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Redactor = <T>(value: T) => T;

/** Redacts what a run said (the input, the system prompt, every turn), not the file's metadata. */
export function redactTrajectory<T extends { input: unknown; request: { system?: string }; turns: unknown[] }>(redact: Redactor, trajectory: T): T {
  const request = { ...trajectory.request };
  if (request.system !== undefined) request.system = redact(request.system);
  return { ...trajectory, input: redact(trajectory.input), request, turns: redact(trajectory.turns) };
}

/** Redacts a live request the same way, before it is compared with a redacted recording. */
export function redactRequest<T extends { system?: string; messages: unknown[] }>(redact: Redactor, request: T): T {
  const copy = { ...request, messages: redact(request.messages) };
  if (request.system !== undefined) copy.system = redact(request.system);
  return copy;
}
