import type { JsonPath } from '../../src/json/jsonPath.js';

/**
 * `partial` is contained in `whole`: the same JSON type; a string is a prefix of the other's
 * (equal to it where `partialStringAt` says no for its path); a number, boolean or null is equal
 * to it; every item of an array is contained in the other's item at the same index, and the
 * array is no longer; every property of an object is one of the other's, its value contained in
 * the other's value.
 */
export function contained(
  partial: unknown,
  whole: unknown,
  partialStringAt: (path: JsonPath) => boolean = () => true,
  path: JsonPath = [],
): boolean {
  if (typeof partial === 'string')
    return typeof whole === 'string' && (partialStringAt(path) ? whole.startsWith(partial) : partial === whole);
  if (partial === null || typeof partial !== 'object') return Object.is(partial, whole);
  if (Array.isArray(partial))
    return (
      Array.isArray(whole) &&
      partial.length <= whole.length &&
      partial.every((item, i) => contained(item, whole[i], partialStringAt, [...path, i]))
    );
  if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) return false;
  return Object.keys(partial).every(
    (key) =>
      Object.hasOwn(whole, key) &&
      contained((partial as Record<string, unknown>)[key], (whole as Record<string, unknown>)[key], partialStringAt, [
        ...path,
        key,
      ]),
  );
}
