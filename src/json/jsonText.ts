/** How {@link jsonText} writes a value. */
interface JsonTextOptions {
  /** Object keys in sorted order at every level, rather than in insertion order. */
  sortKeys?: boolean;
  /** Stop once the text is longer than this many UTF-16 units: the result is then a prefix. */
  stopAfter?: number;
  /** A bigint written as the string `"12n"`, for messages, instead of a TypeError. */
  bigintAsString?: boolean;
}

interface Frame {
  container: object;
  /** The object's keys still to write; undefined for an array. */
  keys: readonly string[] | undefined;
  next: number;
  written: number;
}

const CONTAINER = Symbol('container');

/**
 * `JSON.stringify(value)` that never overflows the stack: the same text for every value
 * (`toJSON` honoured, `undefined` and functions dropped from objects and written as `null` in
 * arrays, non-finite numbers as `null`, a `TypeError` for a bigint or a cycle), and a value
 * nested 100,000 deep gets its text instead of a `RangeError`. Undefined when JSON has no
 * text for the value (`undefined`, a function, a symbol).
 *
 * The engine's own JSON.stringify writes it when it can (it is several times faster); a value
 * too deep for it is written by {@link writeJsonText}, which keeps a stack of its own.
 */
export function jsonText(value: unknown, options: JsonTextOptions = {}): string | undefined {
  if (options.stopAfter === undefined) {
    try {
      const { sortKeys = false, bigintAsString = false } = options;
      return sortKeys || bigintAsString
        ? JSON.stringify(value, replacer(sortKeys, bigintAsString))
        : JSON.stringify(value);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return writeJsonText(value, options);
}

/** The options as a JSON.stringify replacer, which sees each value after its `toJSON`. */
function replacer(sortKeys: boolean, bigintAsString: boolean): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (typeof value === 'bigint') return bigintAsString ? `${value}n` : value;
    if (!sortKeys || typeof value !== 'object' || value === null || Array.isArray(value) || isBoxed(value))
      return value;
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of sortedKeys(value)) sorted[key] = (value as Record<string, unknown>)[key];
    return sorted;
  };
}

function isBoxed(value: object): boolean {
  return value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt;
}

/** {@link jsonText} written level by level with a stack of its own: any depth, and it can stop early. */
export function writeJsonText(value: unknown, options: JsonTextOptions = {}): string | undefined {
  const { sortKeys = false, stopAfter = Infinity, bigintAsString = false } = options;
  const parts: string[] = [];
  let length = 0;
  const write = (text: string): void => {
    parts.push(text);
    length += text.length;
  };
  const ancestors = new Set<object>();
  const stack: Frame[] = [];
  const open = (container: object): void => {
    if (ancestors.has(container)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(container);
    const isArray = Array.isArray(container);
    write(isArray ? '[' : '{');
    const keys = isArray ? undefined : sortKeys ? sortedKeys(container) : Object.keys(container);
    stack.push({ container, keys, next: 0, written: 0 });
  };

  const top = resolve('', value, bigintAsString);
  const root = primitiveText(top);
  if (root !== CONTAINER) return root;
  open(top as object);
  while (stack.length > 0 && length <= stopAfter) {
    const frame = stack[stack.length - 1]!;
    const container = frame.container as Record<string, unknown>;
    const size = frame.keys === undefined ? (container as unknown as unknown[]).length : frame.keys.length;
    if (frame.next >= size) {
      write(frame.keys === undefined ? ']' : '}');
      ancestors.delete(frame.container);
      stack.pop();
      continue;
    }
    const key = frame.keys === undefined ? String(frame.next) : frame.keys[frame.next]!;
    frame.next++;
    const member = resolve(key, container[key], bigintAsString);
    const text = primitiveText(member);
    if (frame.keys === undefined) {
      if (frame.written++ > 0) write(',');
    } else {
      if (text === undefined) continue; // JSON leaves the member out
      if (frame.written++ > 0) write(',');
      write(`${JSON.stringify(key)}:`);
    }
    if (text === CONTAINER) open(member as object);
    else write(text ?? 'null');
  }
  return parts.join('');
}

/**
 * The keys sorted, in the order an object built in that order lists them: array-index keys
 * (`"0"`, `"12"`) first in numeric order, then the others sorted. canonicalJson has always
 * written this order, and digests already written depend on it.
 */
function sortedKeys(object: object): string[] {
  const ordered: Record<string, true> = Object.create(null) as Record<string, true>;
  for (const key of Object.keys(object).sort()) ordered[key] = true;
  return Object.keys(ordered);
}

/** What JSON.stringify does to a value before writing it: `toJSON`, then boxed primitives unboxed. */
function resolve(key: string, value: unknown, bigintAsString: boolean): unknown {
  let resolved = value;
  if ((typeof resolved === 'object' && resolved !== null) || typeof resolved === 'bigint') {
    const toJSON = (resolved as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') resolved = toJSON.call(resolved, key) as unknown;
  }
  if (resolved instanceof Number) return Number(resolved);
  if (resolved instanceof String) return String(resolved);
  if (resolved instanceof Boolean) return resolved.valueOf();
  if (resolved instanceof BigInt) resolved = resolved.valueOf();
  if (bigintAsString && typeof resolved === 'bigint') return `${resolved}n`;
  return resolved;
}

/** A primitive's JSON text, undefined where JSON has none, or CONTAINER for an array or object. */
function primitiveText(value: unknown): string | undefined | typeof CONTAINER {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? 'null' : CONTAINER;
    default:
      return undefined; // undefined, a function, a symbol
  }
}

/**
 * A copy of a JSON value made through its JSON text, without recursion: what
 * `JSON.parse(JSON.stringify(value))` gives, for a value of any depth (V8's JSON.parse does
 * not recurse).
 */
export function copyThroughJson<T>(value: T): T {
  const text = jsonText(value);
  return (text === undefined ? undefined : JSON.parse(text)) as T;
}

/** {@link jsonText} of an object (a record a store writes, say), which always has a text. */
export function objectJsonText(value: object): string {
  return jsonText(value) as string;
}
