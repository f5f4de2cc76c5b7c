import { isPlainObject } from './jsonValue.js';

/** Where two JSON values first differ, and what each side holds there. */
export interface Difference {
  /** A JSON path such as `messages[2].content[0].text`; empty for the values themselves. */
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Walks two JSON values together and returns their first difference, in document order: an
 * object's keys in the expected value's order, then keys only the actual value has.
 */
export function firstDifference(expected: unknown, actual: unknown, path = ''): Difference | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const shared = Math.min(expected.length, actual.length);
    for (let i = 0; i < shared; i++) {
      const difference = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (difference !== undefined) return difference;
    }
    if (expected.length === actual.length) return undefined;
    return { path: `${path}[${shared}]`, expected: expected[shared], actual: actual[shared] };
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((key) => !Object.hasOwn(expected, key))];
    for (const key of keys) {
      const difference = firstDifference(
        Object.hasOwn(expected, key) ? expected[key] : undefined,
        Object.hasOwn(actual, key) ? actual[key] : undefined,
        path === '' ? key : `${path}.${key}`,
      );
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return { path, expected, actual };
}
