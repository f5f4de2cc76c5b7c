/** Whether `parent[key]` was a `$ref` the parser replaced by its target. */
type IsReference = (parent: object, key: string) => boolean;

/** The sizes {@link expandedSize} found, each at most `limit + 1`. */
export interface ExpandedSizes {
  /** The whole value's. */
  readonly total: number;
  /** The size of a part of the value (an object or array met in it). */
  sizeOf(part: object): number;
}

/**
 * The number of JSON values (objects, arrays, strings, numbers, booleans, nulls) a dereferenced document
 * has when written out as a tree: each `$ref` the parser replaced counts as a copy of its target, except
 * one whose target leads into a cycle of references, which counts one (the parser's validation leaves
 * such a `$ref` in place). This is what the parser's validation walks, and a document of a few kilobytes
 * can hold 3^30 of it. Counting takes time in the size of the object graph, not of the tree: each part is
 * counted once, and every size stops at `limit + 1`.
 */
export function expandedSize(root: object, isReference: IsReference, limit: number): ExpandedSizes {
  const cyclic = leadingIntoCycles(root);
  const sizes = new Map<object, number>();
  const add = (a: number, b: number): number => Math.min(limit + 1, a + b);
  const onPath = new Set<object>();
  const frames: { node: object; keys: string[]; next: number; size: number }[] = [];
  const enter = (node: object) => {
    onPath.add(node);
    frames.push({ node, keys: Object.keys(node), next: 0, size: 1 });
  };
  enter(root);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next < frame.keys.length) {
      const key = frame.keys[frame.next++]!;
      const child = (frame.node as Record<string, unknown>)[key];
      const known = isPart(child) ? sizes.get(child) : undefined;
      if (!isPart(child) || (isReference(frame.node, key) && cyclic.has(child)) || onPath.has(child))
        frame.size = add(frame.size, 1);
      else if (known !== undefined) frame.size = add(frame.size, known);
      else enter(child);
      continue;
    }
    frames.pop();
    onPath.delete(frame.node);
    sizes.set(frame.node, frame.size);
    const parent = frames[frames.length - 1];
    if (parent !== undefined) parent.size = add(parent.size, frame.size);
  }
  return { total: sizes.get(root)!, sizeOf: (part) => sizes.get(part) ?? 0 };
}

const isPart = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The objects and arrays of `root` from which a cycle can be reached (those on one included). */
function leadingIntoCycles(root: object): Set<object> {
  const cyclic = new Set<object>();
  const done = new Set<object>();
  const onPath = new Set<object>();
  const frames: { node: object; members: unknown[]; next: number }[] = [];
  const enter = (node: object) => {
    onPath.add(node);
    frames.push({ node, members: Object.values(node), next: 0 });
  };
  enter(root);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next < frame.members.length) {
      const member = frame.members[frame.next++];
      if (!isPart(member)) continue;
      if (onPath.has(member) || cyclic.has(member)) cyclic.add(frame.node);
      else if (!done.has(member)) enter(member);
      continue;
    }
    frames.pop();
    onPath.delete(frame.node);
    done.add(frame.node);
    const parent = frames[frames.length - 1];
    if (parent !== undefined && cyclic.has(frame.node)) cyclic.add(parent.node);
  }
  return cyclic;
}
