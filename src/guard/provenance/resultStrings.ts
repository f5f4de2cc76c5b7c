import { isPlainObject } from '../../json/jsonValue.js';
import type { FieldStep } from '../../json/fieldPath.js';

/**
 * The text a tool_result's content holds: a string content, or the text of its `text` blocks
 * (an image, a document, a search result hold none legate reads).
 */
export function textsOfContent(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) =>
    isPlainObject(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
}

/**
 * The text a server tool's result holds (a search result's title and URL, a fetched page's text, an
 * MCP tool's text): its strings and numbers, without the ones that name a format rather than say
 * something (`type`, `media_type`) or that the model never reads (`encrypted_content`, ...).
 */
export function textsOfServerResult(content: unknown): string[] {
  return leavesOf(content, (key) => key === 'type' || key === 'media_type' || key.startsWith('encrypted_'));
}

/**
 * Every string and number in a value (numbers as JavaScript writes them), in document order; keys
 * aside, and the values of keys `skip` says.
 */
export function leavesOf(value: unknown, skip?: (key: string) => boolean): string[] {
  return stringsIn(value, skip, false);
}

/**
 * Every string a value holds, its objects' keys included, at any depth, and its numbers (as JavaScript
 * writes them): all a tool's input could make it echo.
 */
export function stringsOf(value: unknown): string[] {
  return stringsIn(value, undefined, true);
}

/**
 * The strings and numbers of a value in document order, each key before its value when `keys`, the
 * values of the keys `skip` says left out. Without recursion, so any depth; the pending members go on
 * a stack in reverse, so that the first is taken first.
 */
function stringsIn(value: unknown, skip: ((key: string) => boolean) | undefined, keys: boolean): string[] {
  const found: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const here = pending.pop();
    if (typeof here === 'string') found.push(here);
    else if (typeof here === 'number') found.push(String(here));
    else if (Array.isArray(here)) for (const item of here.toReversed()) pending.push(item);
    else if (isPlainObject(here)) {
      for (const [key, member] of Object.entries(here).toReversed()) {
        if (skip === undefined || !skip(key)) pending.push(member);
        if (keys) pending.push(key);
      }
    }
  }
  return found;
}

/** An untrusted tool's JSON output split into the leaves outsiders wrote and the ones its owner vouches for. */
interface SplitOutput {
  outside: string[];
  vouched: string[];
}

/**
 * Splits a JSON output (as `JSON.parse` gives it) by the parsed `outsideAuthored` paths: every string
 * and number under a place a path reaches is outside, every other one vouched (object keys are
 * neither), each in document order. Undefined, so that the whole output counts as outside, when the
 * output does not have the shape the paths describe: a `[]` meets something other than an array, or a
 * key something other than an object (null and a missing key are fine: an optional field). A scalar
 * output (a bare string) never has the shape.
 */
export function splitOutput(output: unknown, paths: readonly FieldStep[][]): SplitOutput | undefined {
  const split: SplitOutput = { outside: [], vouched: [] };
  /** A place in the output, with the paths still matching it: [path, how many of its steps matched]. */
  const pending: { value: unknown; matching: [number, number][] }[] = [
    { value: output, matching: paths.map((_, i) => [i, 0]) },
  ];
  while (pending.length > 0) {
    const { value, matching } = pending.pop()!;
    if (matching.some(([path, matched]) => matched === paths[path]!.length)) {
      // One push a leaf: an outside field may hold more strings than a call can take arguments.
      for (const leaf of leavesOf(value)) split.outside.push(leaf);
      continue;
    }
    if (value === null) continue;
    for (const [path, matched] of matching) {
      const step = paths[path]![matched]!;
      if ('each' in step ? !Array.isArray(value) : !isPlainObject(value)) return undefined;
    }
    const children: { value: unknown; matching: [number, number][] }[] = [];
    if (Array.isArray(value)) {
      const next = advance(matching, paths, undefined);
      for (const item of value) children.push({ value: item, matching: next });
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value))
        children.push({ value: item, matching: advance(matching, paths, key) });
    } else {
      // A string or a number is its one leaf; a boolean has none.
      split.vouched.push(...leavesOf(value));
    }
    for (const child of children.toReversed()) pending.push(child);
  }
  return split;
}

/** The paths that still match one level down: through an array's element (key undefined) or an object's key. */
function advance(matching: [number, number][], paths: readonly FieldStep[][], key: string | undefined) {
  const next: [number, number][] = [];
  for (const [path, matched] of matching) {
    const step = paths[path]![matched]!;
    if (key === undefined ? 'each' in step : 'key' in step && step.key === key) next.push([path, matched + 1]);
  }
  return next;
}
