/**
 * Whether `part` is within `whole`, as `args: 'subset'` and `'superset'` compare a call's input with a reference's:
 * where both are plain objects, each key of `part` is a key of `whole` and its value is within the whole's; where both
 * are arrays, they have the same length and each item is within the whole's item at its place (as vitest's
 * `toMatchObject` compares arrays: an array is a list, not a set); anything else (a string, a number, null, an
 * asymmetric matcher, a class instance) is compared with `same(part, whole)`.
 */
export function inputWithin(part: unknown, whole: unknown, same: (part: unknown, whole: unknown) => boolean): boolean {
  if (isPlainObject(part) && isPlainObject(whole))
    return Object.keys(part).every((key) => Object.hasOwn(whole, key) && inputWithin(part[key], whole[key], same));
  if (Array.isArray(part) && Array.isArray(whole))
    return part.length === whole.length && part.every((item, i) => inputWithin(item, whole[i], same));
  return same(part, whole);
}

/** An object literal or JSON's object: not an array, nor an instance of a class (an asymmetric matcher is one). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
