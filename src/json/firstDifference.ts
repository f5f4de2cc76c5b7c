import { isPlainObject } from './jsonValue.js';

/** Where two JSON values first differ, and what each side holds there. */
export interface Difference {
  /** A JSON path such as `messages[2].content[0].text`; empty for the values themselves. */
  path: string;
  expected: unknown;
  actual: unknown;
}

/** A path kept as links to its parent, so a deep walk never builds a string per level. */
interface PathLink {
  parent: PathLink | undefined;
  key: string | number;
}

type Task = { expected: unknown; actual: unknown; at: PathLink | undefined } | { found: Difference };

/**
 * Walks two JSON values together and returns their first difference, in document order: an
 * object's keys in the expected value's order, then keys only the actual value has. Walks
 * with a stack of its own, so values of any depth compare without a `RangeError`.
 */
export function firstDifference(expected: unknown, actual: unknown, path = ''): Difference | undefined {
  // Values compared in a replay are nearly always equal: said so by a plain recursive check that builds nothing.
  if (equalWithin(expected, actual, EQUAL_DEPTH)) return undefined;
  const tasks: Task[] = [{ expected, actual, at: undefined }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ('found' in task) return task.found;
    const { expected: e, actual: a, at } = task;
    if (Object.is(e, a)) continue;
    if (Array.isArray(e) && Array.isArray(a)) {
      const shared = Math.min(e.length, a.length);
      // Pushed in reverse, so the items are compared first and the length last.
      if (e.length !== a.length)
        tasks.push({
          found: { path: pathText(path, { parent: at, key: shared }), expected: e[shared], actual: a[shared] },
        });
      for (let i = shared - 1; i >= 0; i--) tasks.push({ expected: e[i], actual: a[i], at: { parent: at, key: i } });
      continue;
    }
    if (isPlainObject(e) && isPlainObject(a)) {
      const keys = [...Object.keys(e), ...Object.keys(a).filter((key) => !Object.hasOwn(e, key))];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        tasks.push({
          expected: Object.hasOwn(e, key) ? e[key] : undefined,
          actual: Object.hasOwn(a, key) ? a[key] : undefined,
          at: { parent: at, key },
        });
      }
      continue;
    }
    return { path: pathText(path, at), expected: e, actual: a };
  }
  return undefined;
}

/** How deep the plain check recurses; a deeper value is left to the walk, whose stack is its own. */
const EQUAL_DEPTH = 200;

/**
 * True when the walk would find no difference: the same leaves (`Object.is`), arrays of the same
 * length, objects whose every key holds the same (a key held as undefined equals a key absent).
 * False when they differ, or nest deeper than `depth`: the walk then finds out where.
 */
function equalWithin(e: unknown, a: unknown, depth: number): boolean {
  if (Object.is(e, a)) return true;
  if (depth === 0 || typeof e !== 'object' || typeof a !== 'object' || e === null || a === null) return false;
  if (Array.isArray(e)) {
    if (!Array.isArray(a) || e.length !== a.length) return false;
    for (let i = 0; i < e.length; i++) if (!equalWithin(e[i], a[i], depth - 1)) return false;
    return true;
  }
  if (Array.isArray(a)) return false;
  const expected = e as Record<string, unknown>;
  const actual = a as Record<string, unknown>;
  // for-in, not Object.keys: no list of keys made per object compared (the own keys alike, in the same order).
  for (const key in expected) {
    if (!Object.hasOwn(expected, key)) continue;
    if (!equalWithin(expected[key], Object.hasOwn(actual, key) ? actual[key] : undefined, depth - 1)) return false;
  }
  for (const key in actual) {
    if (Object.hasOwn(actual, key) && !Object.hasOwn(expected, key) && actual[key] !== undefined) return false;
  }
  return true;
}

function pathText(prefix: string, at: PathLink | undefined): string {
  const keys: (string | number)[] = [];
  for (let link = at; link !== undefined; link = link.parent) keys.push(link.key);
  let path = prefix;
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    path = typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
  }
  return path;
}
