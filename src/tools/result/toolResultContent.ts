import { describeValue, quoteValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import type { ToolResultBlockType } from '../../messages/types.js';

/**
 * The content blocks the Messages API takes in a tool_result, and the check that a tool's blocks
 * are ones it takes: declared once, from the SDK's `ToolResultBlockParam` (@anthropic-ai/sdk
 * 1.14.0), so a tool learns of a block the API would refuse where it returned it, not from a 400
 * on the next turn. The API refuses fields it does not know, so the check does too.
 */

/** What is wrong with a value: where, and in words that say what arrived and what was expected. */
export interface ContentProblem {
  path: string;
  problem: string;
}

/** Says what is wrong with a value at `path`, or undefined. */
type Check = (value: unknown, path: string) => ContentProblem | undefined;

interface Shape {
  required: Record<string, Check>;
  optional: Record<string, Check>;
}

const text: Check = (value, path) => (typeof value === 'string' ? undefined : arrived(path, value, 'a string'));

/** The API refuses a text block without visible text ("text content blocks must contain non-whitespace text"). */
const visibleText: Check = (value, path) =>
  text(value, path) ??
  ((value as string).trim() === ''
    ? { path, problem: `${path} is blank; a text block needs visible text` }
    : undefined);

const textOrNull: Check = (value, path) => (value === null ? undefined : text(value, path));

const oneOf =
  (...allowed: string[]): Check =>
  (value, path) =>
    typeof value === 'string' && allowed.includes(value) ? undefined : arrived(path, value, choices(allowed));

const object =
  (shape: Shape): Check =>
  (value, path) =>
    shapeProblem(value, path, shape);

const nullable =
  (check: Check): Check =>
  (value, path) =>
    value === null ? undefined : check(value, path);

const listOf =
  (item: Check): Check =>
  (value, path) => {
    if (!Array.isArray(value)) return arrived(path, value, 'a list');
    for (const [i, element] of value.entries()) {
      const problem = item(element, `${path}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };

/** A value that is one of several shapes told apart by their `type`. */
const byType =
  (what: string, shapes: Record<string, Shape>): Check =>
  (value, path) => {
    if (!isPlainObject(value)) return arrived(path, value, what);
    const shape = Object.hasOwn(shapes, value.type as string) ? shapes[value.type as string] : undefined;
    if (shape === undefined) return arrived(`${path}.type`, value.type, choices(Object.keys(shapes)));
    return shapeProblem(value, path, {
      required: { type: () => undefined, ...shape.required },
      optional: shape.optional,
    });
  };

const cacheControl = nullable(object({ required: { type: oneOf('ephemeral') }, optional: { ttl: oneOf('5m', '1h') } }));
const citationsConfig = object({
  required: {},
  optional: { enabled: (v, p) => (typeof v === 'boolean' ? undefined : arrived(p, v, 'true or false')) },
});

const TEXT: Shape = {
  required: { text: visibleText },
  optional: {
    citations: nullable(listOf((v, p) => (isPlainObject(v) ? undefined : arrived(p, v, 'a citation')))),
    cache_control: cacheControl,
  },
};
const IMAGE: Shape = {
  required: {
    source: byType('an image source', {
      base64: {
        required: { media_type: oneOf('image/jpeg', 'image/png', 'image/gif', 'image/webp'), data: text },
        optional: {},
      },
      url: { required: { url: text }, optional: {} },
      file: { required: { file_id: text }, optional: {} },
    }),
  },
  optional: {
    cache_control: cacheControl,
    transformations: nullable(object({ required: {}, optional: { oversized_image: oneOf('downsize', 'error') } })),
  },
};
const DOCUMENT: Shape = {
  required: {
    source: byType('a document source', {
      base64: { required: { media_type: oneOf('application/pdf'), data: text }, optional: {} },
      text: { required: { media_type: oneOf('text/plain'), data: text }, optional: {} },
      content: {
        required: {
          content: (v, p) =>
            typeof v === 'string'
              ? undefined
              : listOf(byType('a text or image block', { text: TEXT, image: IMAGE }))(v, p),
        },
        optional: {},
      },
      url: { required: { url: text }, optional: {} },
      file: { required: { file_id: text }, optional: {} },
    }),
  },
  optional: {
    title: textOrNull,
    context: textOrNull,
    citations: nullable(citationsConfig),
    cache_control: cacheControl,
  },
};
const SEARCH_RESULT: Shape = {
  required: { source: text, title: text, content: listOf(byType('a text block', { text: TEXT })) },
  optional: { citations: citationsConfig, cache_control: cacheControl },
};
const TOOL_REFERENCE: Shape = { required: { tool_name: text }, optional: { cache_control: cacheControl } };

/** Every block a tool_result takes, by type: one for each of `TOOL_RESULT_BLOCK_TYPES`. */
const BLOCKS: Record<ToolResultBlockType, Shape> = {
  text: TEXT,
  image: IMAGE,
  document: DOCUMENT,
  search_result: SEARCH_RESULT,
  tool_reference: TOOL_REFERENCE,
};

const block = byType('a content block', BLOCKS);

/** Whether a value names a block type a tool_result takes: a list of such values is meant as content. */
export function namesContentBlock(value: unknown): boolean {
  return isPlainObject(value) && typeof value.type === 'string' && Object.hasOwn(BLOCKS, value.type);
}

/** What makes `blocks` content the API would refuse in a tool_result, or undefined: the first problem found. */
export function toolResultContentProblem(blocks: readonly unknown[]): ContentProblem | undefined {
  return listOf(block)(blocks, 'content');
}

function shapeProblem(value: unknown, path: string, shape: Shape): ContentProblem | undefined {
  if (!isPlainObject(value)) return arrived(path, value, 'an object');
  const required = Object.keys(shape.required);
  for (const [key, check] of Object.entries(shape.required)) {
    const at = member(path, key);
    if (!Object.hasOwn(value, key) || value[key] === undefined)
      return { path: at, problem: `${at} is missing; here ${required.join(', ')} are required` };
    const problem = check(value[key], at);
    if (problem !== undefined) return problem;
  }
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(shape.required, key) || value[key] === undefined) continue;
    const at = member(path, key);
    const check = Object.hasOwn(shape.optional, key) ? shape.optional[key] : undefined;
    if (check === undefined) {
      const known = [...required, ...Object.keys(shape.optional)];
      return { path: at, problem: `${at} is a field the API does not take here (it takes ${known.join(', ')})` };
    }
    const problem = check(value[key], at);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** `path.key`, or `path["key"]` (escaped, cut) for a key that is not a plain name. */
function member(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${quoteValue(key)}]`;
}

function arrived(path: string, value: unknown, expected: string): ContentProblem {
  return { path, problem: `${path} is ${describeValue(value)}; expected ${expected}` };
}

function choices(allowed: readonly string[]): string {
  return `one of ${allowed.map((a) => `"${a}"`).join(', ')}`;
}
