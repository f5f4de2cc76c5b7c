import { isPlainObject } from '../json/jsonValue.js';

/**
 * True when a value nests more than `limit` arrays and objects deep (a scalar is depth 0,
 * `{ a: 1 }` depth 1). Iterative, and stops at the first branch past the limit, so any depth
 * a model can send is measured without a stack overflow.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    const children = Array.isArray(current) ? current : isPlainObject(current) ? Object.values(current) : undefined;
    if (children === undefined || children.length === 0) continue;
    if (depth + 1 > limit) return true;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return false;
}

type Frame = { items: [key: string | undefined, value: unknown][]; next: number; close: string };

/**
 * `JSON.stringify` for a JSON value of any depth: the same text, without the recursion that
 * overflows the stack a few thousand levels down. (`JSON.parse` reads any depth already.)
 */
export function stringifyJsonDeep(root: unknown): string {
  const stack: Frame[] = [];
  let out = '';
  let value = root;
  for (;;) {
    if (Array.isArray(value)) {
      if (value.length === 0) out += '[]';
      else {
        out += '[';
        stack.push({ items: value.map((item): [undefined, unknown] => [undefined, item]), next: 0, close: ']' });
      }
    } else if (isPlainObject(value)) {
      // As JSON.stringify does: a property that is undefined (or a function or symbol) is left out.
      const entries = Object.entries(value).filter(([, inner]) => inner !== undefined && typeof inner !== 'function' && typeof inner !== 'symbol');
      if (entries.length === 0) out += '{}';
      else {
        out += '{';
        stack.push({ items: entries, next: 0, close: '}' });
      }
    } else {
      out += JSON.stringify(value) ?? 'null'; // in an array, undefined (or a function) is written as null, as JSON.stringify does
    }
    let frame = stack.at(-1);
    while (frame !== undefined && frame.next === frame.items.length) {
      out += frame.close;
      stack.pop();
      frame = stack.at(-1);
    }
    if (frame === undefined) return out;
    if (frame.next > 0) out += ',';
    const [key, inner] = frame.items[frame.next++]!;
    if (key !== undefined) out += `${JSON.stringify(key)}:`;
    value = inner;
  }
}

/** A copy of a JSON value (a request, a response) of any depth: what it would be after a trip over the wire. */
export function cloneJsonDeep<T>(value: T): T {
  return JSON.parse(stringifyJsonDeep(value)) as T;
}
