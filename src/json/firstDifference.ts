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
