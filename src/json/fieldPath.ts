import { describeValue } from './describeValue.js';
import { isPlainObject } from './jsonValue.js';

/**
 * A field path names places in a JSON value: keys joined by `.`, and `[]` for every element of an
 * array: `recipient`, `to.iban`, `recipients[]`, `[].subject` (the value is an array),
 * `transactions[].subject`. A key is any non-empty text without `.`, `[` or `]`; an index such as
 * `[0]` is not part of the syntax (a path names every element or none).
 */

/** One step of a parsed field path: a key of an object, or every element of an array. */
export type FieldStep = { key: string } | { each: true };

/** The steps of a valid path, or what is wrong with it. */
export function parseFieldPath(path: unknown): { steps: FieldStep[] } | { problem: string } {
  if (typeof path !== 'string') {
    return {
      problem: `a field path is a string such as 'to.iban' or 'recipients[]', but it was ${describeValue(path)}`,
    };
  }
  if (path === '') return { problem: "a field path cannot be empty: name a key such as 'recipient'" };
  const steps: FieldStep[] = [];
  let i = 0;
  for (;;) {
    if (path.startsWith('[]', i)) {
      steps.push({ each: true });
      i += 2;
    } else {
      const end = keyEnd(path, i);
      if (end === i) return { problem: missingKey(path, i) };
      steps.push({ key: path.slice(i, end) });
      i = end;
    }
    if (i === path.length) return { steps };
    if (path.startsWith('[]', i)) continue;
    if (path[i] === '.') {
      i += 1;
      if (path.startsWith('[]', i)) {
        return { problem: `'${path}' has '.' before '[]': write '[]' right after the key, as in 'recipients[]'` };
      }
      continue;
    }
    if (path[i] === '[' || path[i] === ']') return { problem: missingKey(path, i) };
    const key = path.slice(i, keyEnd(path, i));
    return { problem: `'${path}' has a key right after '[]': write '.' between them, as in '[].${key}'` };
  }
}

/** What is wrong with a field path, or undefined when it is valid. */
export function fieldPathProblem(path: unknown): string | undefined {
  const parsed = parseFieldPath(path);
  return 'problem' in parsed ? parsed.problem : undefined;
}

/** A value a path reaches, with the concrete path to it: `recipients[1]`, `to.iban`, `[0].subject`. */
interface ValueAt {
  at: string;
  value: unknown;
}

/**
 * The values `path` reaches in `value`, in document order. A key that is not an own key of an
 * object (or a key over anything but an object) reaches nothing; `[]` over anything but an array
 * reaches nothing. Throws a TypeError for an invalid path (see {@link fieldPathProblem}).
 */
export function valuesAt(value: unknown, path: string): ValueAt[] {
  const parsed = parseFieldPath(path);
  if ('problem' in parsed) throw new TypeError(`valuesAt: ${parsed.problem}`);
  let reached: ValueAt[] = [{ at: '', value }];
  for (const step of parsed.steps) {
    const next: ValueAt[] = [];
    for (const { at, value: here } of reached) {
      if ('each' in step) {
        if (Array.isArray(here)) for (const [i, item] of here.entries()) next.push({ at: `${at}[${i}]`, value: item });
      } else if (isPlainObject(here) && Object.hasOwn(here, step.key)) {
        next.push({ at: at === '' ? step.key : `${at}.${step.key}`, value: here[step.key] });
      }
    }
    reached = next;
  }
  return reached;
}

/** Where the key starting at `from` ends: at the next `.`, `[`, `]` or the end. */
function keyEnd(path: string, from: number): number {
  let i = from;
  while (i < path.length && path[i] !== '.' && path[i] !== '[' && path[i] !== ']') i += 1;
  return i;
}

/** Why no key starts at `i`. */
function missingKey(path: string, i: number): string {
  if (i === path.length) return `'${path}' ends with '.': a key must follow it`;
  if (path[i] === '.') {
    return i === 0 ? `'${path}' starts with '.': begin with a key or '[]'` : `'${path}' has an empty key (two dots)`;
  }
  if (path[i] === ']') return `'${path}' has a ']' with no '[' just before it`;
  return `'${path}' has a '[' not followed by ']': '[]' means every element; an index such as '[0]' is not supported`;
}
