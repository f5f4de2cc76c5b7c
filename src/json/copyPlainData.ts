import { copyValue } from './copyValue.js';

/** Marks a value the plain copy leaves to structuredClone. */
const HANDED_ON = Symbol('handed on');
/** Deeper than this, the value is handed to {@link copyValue}, which copies any depth. */
const MAX_DEPTH = 200;

/**
 * The copy {@link copyValue} makes, made in JavaScript for plain data (primitives, plain objects, dense arrays,
 * each object met once): several times faster than a structuredClone for the small values of a conversation.
 * Anything else (a shared or cyclic object, a Date, a Map, a sparse array, an array with named keys, a
 * `__proto__` key, a function, a symbol, great depth) hands the whole value to copyValue, so the result is always
 * copyValue's (held to it by test/json/copyPlainData.property.test.ts).
 */
export function copyPlainData<T>(value: T): T {
  const copy = copyPlain(value, new Set(), 0);
  return copy === HANDED_ON ? copyValue(value) : (copy as T);
}

function copyPlain(value: unknown, seen: Set<object>, depth: number): unknown {
  if (typeof value !== 'object' || value === null)
    return typeof value === 'function' || typeof value === 'symbol' ? HANDED_ON : value;
  if (depth > MAX_DEPTH || seen.has(value)) return HANDED_ON;
  seen.add(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return HANDED_ON;
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return HANDED_ON;
      const member = copyPlain(value[i], seen, depth + 1);
      if (member === HANDED_ON) return HANDED_ON;
      copy.push(member);
    }
    return Object.keys(value).length === value.length ? copy : HANDED_ON;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return HANDED_ON;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return HANDED_ON;
    const member = copyPlain((value as Record<string, unknown>)[key], seen, depth + 1);
    if (member === HANDED_ON) return HANDED_ON;
    copy[key] = member;
  }
  return copy;
}
