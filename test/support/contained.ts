/**
 * `partial` is contained in `whole`: the same JSON type; a string is a prefix of the other's; a number, boolean or
 * null is equal to it; an array is no longer than the other, and each of its items is contained in the other's item at
 * the same index; every property of an object is one of the other's, its value contained in the other's value.
 * The order in which partial structured values grow (docs/using-legate.md, "Streaming").
 */
export function contained(partial: unknown, whole: unknown): boolean {
  if (typeof partial === 'string') return typeof whole === 'string' && whole.startsWith(partial);
  if (partial === null || typeof partial !== 'object') return Object.is(partial, whole);
  if (Array.isArray(partial))
    return (
      Array.isArray(whole) && partial.length <= whole.length && partial.every((item, i) => contained(item, whole[i]))
    );
  if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) return false;
  return Object.entries(partial).every(
    ([key, value]) => Object.hasOwn(whole, key) && contained(value, (whole as Record<string, unknown>)[key]),
  );
}
