import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import {
  API_STOP_REASONS,
  SERVER_BLOCK_TYPES,
  type ApiStopReason,
  type ApiUsage,
  type ModelResponse,
  type ResponseBlock,
} from './types.js';
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

const KNOWN_BLOCK_TYPES = ['text', 'thinking', 'redacted_thinking', 'tool_use', ...SERVER_BLOCK_TYPES];

/**
 * Checks that a transport's answer is a Messages API response and returns it in legate's
 * exact shape: only the fields the conversation needs, `null` citations dropped. Throws a
 * {@link ModelResponseError} naming the field, what was expected and what arrived.
 */
export function parseModelResponse(value: unknown, source = 'The transport'): ModelResponse {
  const fail = (path: string, expected: string, received: unknown): never => {
    throw new ModelResponseError(
      `${source} answered with something that is not a Messages API response: ` +
        `${path === '' ? 'the answer' : `'${path}'`} should be ${expected}, but it was ${describeValue(received)}. ` +
        'A transport must resolve to the assistant message, as the API returns it.',
      path,
      received,
    );
  };
  if (!isPlainObject(value)) return fail('', 'an object of type "message"', value);
  if (value.type !== 'message') fail('type', '"message"', value.type);
  if (value.role !== 'assistant') fail('role', '"assistant"', value.role);
  const id = stringAt(value, 'id', fail);
  const model = stringAt(value, 'model', fail);
  if (!Array.isArray(value.content)) fail('content', 'an array of content blocks', value.content);
  const content = (value.content as unknown[]).map((block, i) => parseBlock(block, `content[${i}]`, fail));
  const stopReason = value.stop_reason;
  if (stopReason !== null && !API_STOP_REASONS.includes(stopReason as ApiStopReason)) {
    fail('stop_reason', `null or one of ${API_STOP_REASONS.join(', ')}`, stopReason);
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
  const cut = value.incompleteToolUse;
  if (cut !== undefined) response.incompleteToolUse = parseIncomplete(cut, content, fail);
  return response;
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

function parseBlock(block: unknown, path: string, fail: Fail): ResponseBlock {
  if (!isPlainObject(block)) return fail(path, 'a content block object', block);
  const type = block.type;
  if (typeof type !== 'string' || !KNOWN_BLOCK_TYPES.includes(type)) {
    return fail(`${path}.type`, `one of ${KNOWN_BLOCK_TYPES.join(', ')}`, type);
  }
  const at = `${path}.`;
  switch (type) {
    case 'text': {
      const text: ResponseBlock = { type: 'text', text: stringAt(block, 'text', fail, at) };
      if (Array.isArray(block.citations) && block.citations.length > 0) text.citations = block.citations;
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
      return { type: 'tool_use', id, name, input: block.input };
    }
    default:
      // Server-side tool blocks are kept whole: the API needs them back exactly as sent.
      return { ...block } as ResponseBlock;
  }
}

function parseUsage(usage: unknown, fail: Fail): ApiUsage {
  if (!isPlainObject(usage)) return fail('usage', 'an object with input_tokens and output_tokens', usage);
  const count = (key: string, optional: boolean): number | null => {
    const n = usage[key];
    if (optional && (n === undefined || n === null)) return null;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) fail(`usage.${key}`, 'a whole number of tokens', n);
    return n as number;
  };
  const result: ApiUsage = {
    input_tokens: count('input_tokens', false) as number,
    output_tokens: count('output_tokens', false) as number,
  };
  const cacheCreation = count('cache_creation_input_tokens', true);
  const cacheRead = count('cache_read_input_tokens', true);
  if (cacheCreation !== null) result.cache_creation_input_tokens = cacheCreation;
  if (cacheRead !== null) result.cache_read_input_tokens = cacheRead;
  return result;
}
