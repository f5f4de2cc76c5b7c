import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import { API_STOP_REASONS } from './knownValues.js';
import type {
  ApiStopReason,
  ApiUsage,
  ModelResponse,
  ResponseBlock,
  ToolCaller,
  ToolUseBlock,
  TypedBlockType,
} from './types.js';
import { REQUIRED_USAGE_COUNTERS, USAGE_BREAKDOWNS, USAGE_COUNTERS, type UsageCounter } from './usageCounters.js';
import { LegateError } from '../errors/LegateError.js';

/** A transport answered with something that is not a Messages API response. */
export class ModelResponseError extends LegateError {
  readonly code = 'invalid_model_response';
  constructor(
    message: string,
    /** Where in the answer the problem is, e.g. `content[1].text`. */
    readonly path: string,
    /** The value found there. */
    readonly received: unknown,
  ) {
    super(message);
  }
}

/**
 * Checks that a transport's answer is a Messages API response and returns it in legate's
 * shape. What the API sent and needs back is kept; nothing the API would refuse in the next
 * request is: a block of a type legate types keeps the fields its request form takes (text:
 * `text`, `citations` when there are any; thinking: `thinking`, `signature`; redacted thinking:
 * `data`; tool_use: `id`, `name`, `input`, `caller`, `toolset_name` when a string), any other
 * field of it is left out; a block of any other type is kept whole, as it came. The response's
 * `stop_reason` (any string: one the API added after this release too), `stop_details`, `container`
 * and `context_management` are kept as they came (null included),
 * `usage` whole (every counter, zeros and nulls as they came); other response-level fields are
 * not kept (the SDK adds its own there, such as `parsed_output`). Throws a
 * {@link ModelResponseError} naming the field, what was expected and what arrived.
 */
export function parseModelResponse(value: unknown, source = 'The transport'): ModelResponse {
  const fail = failFor(source);
  if (!isPlainObject(value)) return fail('', 'an object of type "message"', value);
  if (value.type !== 'message') fail('type', '"message"', value.type);
  if (value.role !== 'assistant') fail('role', '"assistant"', value.role);
  const id = stringAt(value, 'id', fail);
  const model = stringAt(value, 'model', fail);
  if (!Array.isArray(value.content)) fail('content', 'an array of content blocks', value.content);
  const content = (value.content as unknown[]).map((block, i) => parseBlock(block, `content[${i}]`, fail));
  const stopReason = value.stop_reason;
  // A reason the API added after this release is kept as sent: the run ends with it.
  if (stopReason !== null && typeof stopReason !== 'string') {
    fail('stop_reason', `null or a string (one of ${API_STOP_REASONS.join(', ')}, or a newer one)`, stopReason);
  }
  const stopSequence = value.stop_sequence;
  if (stopSequence !== undefined && stopSequence !== null && typeof stopSequence !== 'string') {
    fail('stop_sequence', 'a string or null', stopSequence);
  }
  const response: ModelResponse = {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason as ApiStopReason | null,
    stop_sequence: (stopSequence as string | null | undefined) ?? null,
    usage: parseUsage(value.usage, fail),
  };
  const { stop_details: stopDetails, container, context_management: contextManagement } = value;
  if (stopDetails !== undefined) {
    if (stopDetails !== null) typedObjectAt(stopDetails, 'stop_details', ['type'], fail);
    response.stop_details = stopDetails as ModelResponse['stop_details'];
  }
  if (container !== undefined) {
    if (container !== null) typedObjectAt(container, 'container', ['id', 'expires_at'], fail);
    response.container = container as ModelResponse['container'];
  }
  if (contextManagement !== undefined) {
    if (contextManagement !== null && !isPlainObject(contextManagement))
      fail('context_management', 'an object or null', contextManagement);
    response.context_management = contextManagement;
  }
  const cut = value.incompleteToolUse;
  if (cut !== undefined) response.incompleteToolUse = parseIncomplete(cut, content, fail);
  return response;
}

/** What `source` answered wrong, as a ModelResponseError: one function per source, made once. */
const failures = new Map<string, Fail>();

function failFor(source: string): Fail {
  let fail = failures.get(source);
  if (fail === undefined) {
    fail = (path, expected, received) => {
      throw new ModelResponseError(
        `${source} answered with something that is not a Messages API response: ` +
          `${path === '' ? 'the answer' : `'${path}'`} should be ${expected}, but it was ${describeValue(received)}. ` +
          'A transport must resolve to the assistant message, as the API returns it.',
        path,
        received,
      );
    };
    failures.set(source, fail);
  }
  return fail;
}

function parseIncomplete(cut: unknown, content: ResponseBlock[], fail: Fail): ModelResponse['incompleteToolUse'] {
  const expected = 'the index of a tool input block of content and the partialJson that arrived';
  if (!isPlainObject(cut) || typeof cut.partialJson !== 'string') return fail('incompleteToolUse', expected, cut);
  const { index } = cut;
  if (typeof index !== 'number' || !(content[index] !== undefined && 'input' in content[index]))
    return fail('incompleteToolUse.index', expected, index);
  return { index, partialJson: cut.partialJson };
}

type Fail = (path: string, expected: string, received: unknown) => never;

function stringAt(object: Record<string, unknown>, key: string, fail: Fail, prefix = ''): string {
  const value = object[key];
  if (typeof value !== 'string') fail(`${prefix}${key}`, 'a string', value);
  return value as string;
}

/** An object with the given string fields, kept whole: a caller, stop details, a container. */
function typedObjectAt(value: unknown, path: string, fields: string[], fail: Fail): Record<string, unknown> {
  const expected = `an object with ${fields.map((field) => `a string '${field}'`).join(' and ')}`;
  if (!isPlainObject(value)) return fail(path, expected, value);
  for (const field of fields) if (typeof value[field] !== 'string') fail(`${path}.${field}`, 'a string', value[field]);
  return value;
}

function parseBlock(block: unknown, path: string, fail: Fail): ResponseBlock {
  if (!isPlainObject(block)) return fail(path, 'a content block object', block);
  const type = block.type;
  if (typeof type !== 'string') return fail(`${path}.type`, 'a string naming the block type', type);
  const at = `${path}.`;
  switch (type as TypedBlockType) {
    case 'text': {
      const text: ResponseBlock = { type: 'text', text: stringAt(block, 'text', fail, at) };
      const citations = block.citations;
      if (citations !== undefined && citations !== null && !Array.isArray(citations))
        fail(`${at}citations`, 'a list of citations or null', citations);
      // None is said as null or left out; the request form takes a list, so only a list goes back.
      if (Array.isArray(citations) && citations.length > 0) text.citations = citations;
      return text;
    }
    case 'thinking':
      return {
        type: 'thinking',
        thinking: stringAt(block, 'thinking', fail, at),
        signature: stringAt(block, 'signature', fail, at),
      };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: stringAt(block, 'data', fail, at) };
    case 'tool_use': {
      const id = stringAt(block, 'id', fail, at);
      const name = stringAt(block, 'name', fail, at);
      if (!('input' in block)) fail(`${at}input`, 'the tool input', undefined);
      const toolUse: ToolUseBlock = { type: 'tool_use', id, name, input: block.input };
      if (block.caller !== undefined)
        toolUse.caller = typedObjectAt(block.caller, `${at}caller`, ['type'], fail) as ToolCaller;
      const toolset = block.toolset_name;
      if (toolset !== undefined && toolset !== null && typeof toolset !== 'string')
        fail(`${at}toolset_name`, 'a string or null', toolset);
      if (typeof toolset === 'string') toolUse.toolset_name = toolset;
      return toolUse;
    }
    default:
      // A block legate does not type is kept whole: the API needs it back exactly as sent.
      return { ...block, type };
  }
}

/**
 * The usage as the API reported it, whole: every field kept as it came (a zero stays a zero, a
 * null a null, a field legate does not know stays). The counters legate knows
 * ({@link USAGE_COUNTERS}) are checked: whole numbers, `input_tokens` and `output_tokens`
 * required; the others, and the breakdowns holding them, may be null or absent.
 */
function parseUsage(usage: unknown, fail: Fail): ApiUsage {
  if (!isPlainObject(usage)) return fail('usage', 'an object with input_tokens and output_tokens', usage);
  for (const part of USAGE_BREAKDOWNS) {
    const breakdown = usage[part];
    if (breakdown !== undefined && breakdown !== null && !isPlainObject(breakdown))
      fail(`usage.${part}`, 'an object or null', breakdown);
  }
  for (const counter of Object.keys(USAGE_COUNTERS) as UsageCounter[]) {
    const path = USAGE_COUNTERS[counter];
    const holder = (path.length === 1 ? usage : usage[path[0]]) as Record<string, unknown> | null | undefined;
    const n = holder?.[path[path.length - 1]!];
    if (!REQUIRED_USAGE_COUNTERS.includes(counter) && (n === undefined || n === null)) continue;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      const unit = counter.endsWith('Requests') ? 'requests' : 'tokens';
      fail(`usage.${path.join('.')}`, `a whole number of ${unit}`, n);
    }
  }
  const tier = usage.service_tier;
  if (tier !== undefined && tier !== null && typeof tier !== 'string')
    fail('usage.service_tier', 'a string or null', tier);
  return { ...usage } as ApiUsage;
}
