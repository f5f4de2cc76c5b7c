import type { JsonPath } from './jsonPath.js';

/**
 * Where a value first nests deeper than `limit` levels of arrays and objects, in document
 * order: the path to the first array or object at level `limit + 1` (the value itself is
 * level 1), or undefined when the value stays within the limit. A scalar is level 0.
 *
 * Walks with a stack of its own and never below `limit + 1`, so it cannot overflow, whatever
 * the depth, and a cyclic value is simply too deep.
 */
export function pathBeyondDepth(value: unknown, limit: number): JsonPath | undefined {
  // The common case first: a walk that allocates nothing and recurses at most `limit + 1`
  // frames deep (it stops there), so for a small limit it cannot overflow either.
  if (limit <= MAX_RECURSIVE_LIMIT && !nestsBeyond(value, limit)) return undefined;
  return firstPathBeyond(value, limit);
}

/** The largest limit checked by recursion: a few hundred frames fit any stack. */
const MAX_RECURSIVE_LIMIT = 256;

/**
 * Whether the value has an array or object at level `remaining + 1` (a cyclic value does), as
 * {@link pathBeyondDepth} counts. It recurses up to `remaining + 1` frames deep: `remaining` must be small
 * (at most a few hundred) and not negative.
 */
export function nestsBeyond(value: unknown, remaining: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (remaining === 0) return true;
  // An object's own enumerable members, as Object.keys lists them, read in one step.
  const members: unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (let i = 0; i < members.length; i++) {
    const member = members[i];
    // Only an array or an object can nest: a scalar member is passed over without a call.
    if (typeof member === 'object' && member !== null && nestsBeyond(member, remaining - 1)) return true;
  }
  return false;
}

function firstPathBeyond(value: unknown, limit: number): JsonPath | undefined {
  interface Entry {
    value: unknown;
    level: number;
    parent: Entry | undefined;
    key: string | number | undefined;
  }
  const stack: Entry[] = [{ value, level: 1, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.value !== 'object' || entry.value === null) continue;
    if (entry.level > limit) return pathOf(entry);
    const container = entry.value as Record<string, unknown>;
    const keys: (string | number)[] = Array.isArray(container) ? Array.from(container.keys()) : Object.keys(container);
    // Pushed in reverse, so the first member is walked first.
    for (let i = keys.length - 1; i >= 0; i--) {
      const member = container[keys[i]!];
      if (typeof member === 'object' && member !== null)
        stack.push({ value: member, level: entry.level + 1, parent: entry, key: keys[i] });
    }
  }
  return undefined;

  function pathOf(entry: Entry): JsonPath {
    const path: JsonPath = [];
    for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  }
}
