/**
 * A deep copy, as `structuredClone` makes it, that never overflows the stack: `structuredClone`
 * copies it when it can, and a value too deep for it is copied by {@link copyByLevel}.
 */
export function copyValue<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return copyByLevel(value);
  }
}

/**
 * Arrays and plain objects copied level by level with a stack of their own (shared and cyclic
 * references kept as they were), so a value nested 100,000 deep is copied instead of raising a
 * `RangeError`. Any other object (a Date, a Map, ...) is handed to `structuredClone` whole.
 */
export function copyByLevel<T>(value: T): T {
  if (!isCopiedByLevel(value)) return copyLeaf(value);
  const copies = new Map<object, unknown>();
  const pending: [source: Record<string, unknown>, target: Record<string, unknown>][] = [];
  const copyOf = (source: object): unknown => {
    const known = copies.get(source);
    if (known !== undefined) return known;
    const target = Array.isArray(source) ? new Array<unknown>(source.length) : {};
    copies.set(source, target);
    pending.push([source as Record<string, unknown>, target as Record<string, unknown>]);
    return target;
  };
  const root = copyOf(value as object) as T;
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    for (const key of Object.keys(source)) {
      const member = source[key];
      const copy = isCopiedByLevel(member) ? copyOf(member as object) : copyLeaf(member);
      // defineProperty: a key such as __proto__ stays an own property, as structuredClone keeps it.
      Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

function isCopiedByLevel(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function copyLeaf<T>(value: T): T {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
