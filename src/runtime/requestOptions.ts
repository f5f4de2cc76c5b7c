import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import type { CacheControl, MessagesRequest, ToolChoice } from '../messages/types.js';
import { unknownOptionMessage } from '../tools/unknownOption.js';

/**
 * The agent options that become Messages API request parameters (beside model, system, tools,
 * `maxTokens` and `temperature`), in legate's camelCase, each checked when the agent is built.
 */

/**
 * How the model may use its tools: as it decides (`auto`, the API's default), at least one
 * (`any`), one named tool, or none.
 */
export type ToolChoiceOption =
  | { type: 'auto' | 'any'; disableParallelToolUse?: boolean }
  | { type: 'tool'; name: string; disableParallelToolUse?: boolean }
  | { type: 'none' };

/** Extended thinking: a token budget (`enabled`), or `adaptive` (the model decides how much). */
export type ThinkingOption = { budgetTokens: number } | { type: 'adaptive' };

/**
 * Prompt caching. `at: 'auto'` (the default) asks the API to put the breakpoint on the last
 * cacheable block of each request (its top-level `cache_control`); `at: 'prefix'` puts one on the
 * system prompt and one on the last tool, the part of the request that is the same on every turn.
 * `ttl` is the cache entry's lifetime, `5m` (the API's default) or `1h`.
 */
export interface CacheControlOption {
  at?: 'auto' | 'prefix';
  ttl?: '5m' | '1h';
}

/** Request metadata: `userId` is an opaque id of the end user (a hash, never a name or an address). */
export interface MetadataOption {
  userId: string;
}

/** The request parameters an agent sets, checked. */
export interface RequestOptions {
  toolChoice: ToolChoiceOption | undefined;
  stopSequences: readonly string[] | undefined;
  thinking: ThinkingOption | undefined;
  cacheControl: CacheControlOption | undefined;
  metadata: MetadataOption | undefined;
  /** The code execution container every request uses; without one, the run's latest (see runLoop). */
  container: string | undefined;
}

type Fail = (option: string, message: string) => never;

/** Keys of an option object: a misspelt one is refused, never ignored. */
function checkKeys(value: Record<string, unknown>, option: string, known: readonly string[], fail: Fail): void {
  for (const key of Object.keys(value))
    if (!known.includes(key))
      fail(`${option}.${key}`, unknownOptionMessage(key, known, { one: `a key of '${option}'`, all: 'keys' }));
}

/** Checks the request options of an agent whose tools (defined and server) have these names. */
export function checkRequestOptions(
  options: Partial<Record<keyof RequestOptions, unknown>>,
  toolNames: readonly string[],
  fail: Fail,
): RequestOptions {
  return {
    toolChoice: checkToolChoice(options.toolChoice, toolNames, fail),
    stopSequences: checkStopSequences(options.stopSequences, fail),
    thinking: checkThinking(options.thinking, fail),
    cacheControl: checkCacheControl(options.cacheControl, fail),
    metadata: checkMetadata(options.metadata, fail),
    container: checkContainer(options.container, fail),
  };
}

const CHOICES = ['auto', 'any', 'tool', 'none'];

function checkToolChoice(value: unknown, toolNames: readonly string[], fail: Fail): ToolChoiceOption | undefined {
  if (value === undefined) return undefined;
  const shape = "{ type: 'auto' | 'any' | 'none' } or { type: 'tool', name }, with disableParallelToolUse if wanted";
  if (!isPlainObject(value) || !CHOICES.includes(value.type as string))
    return fail('toolChoice', `'toolChoice' must be ${shape}, but it was ${describeValue(value)}.`);
  const type = value.type as ToolChoiceOption['type'];
  const keys =
    type === 'none'
      ? ['type']
      : type === 'tool'
        ? ['type', 'name', 'disableParallelToolUse']
        : ['type', 'disableParallelToolUse'];
  checkKeys(value, 'toolChoice', keys, fail);
  if (value.disableParallelToolUse !== undefined && typeof value.disableParallelToolUse !== 'boolean')
    fail(
      'toolChoice.disableParallelToolUse',
      `'toolChoice.disableParallelToolUse' must be true or false, but it was ` +
        `${describeValue(value.disableParallelToolUse)}.`,
    );
  if (type === 'tool' && !toolNames.includes(value.name as string))
    fail(
      'toolChoice.name',
      `'toolChoice' names the tool ${describeValue(value.name)}, which is not one of this agent's tools ` +
        `(${toolNames.map((n) => `'${n}'`).join(', ') || 'it has none'}).`,
    );
  if (type !== 'none' && toolNames.length === 0)
    fail('toolChoice', `'toolChoice' is '${type}', but the agent has no tools to choose from.`);
  return { ...value } as ToolChoiceOption;
}

function checkStopSequences(value: unknown, fail: Fail): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value))
    return fail('stopSequences', `'stopSequences' must be a list of strings, but it was ${describeValue(value)}.`);
  value.forEach((sequence: unknown, i) => {
    if (typeof sequence !== 'string' || sequence.trim() === '')
      fail(
        `stopSequences[${i}]`,
        `stopSequences[${i}] must be a string with a non-blank character, but it was ${describeValue(sequence)}.`,
      );
  });
  return Object.freeze([...value]);
}

function checkThinking(value: unknown, fail: Fail): ThinkingOption | undefined {
  if (value === undefined) return undefined;
  const shape = "{ budgetTokens: number } or { type: 'adaptive' }";
  if (!isPlainObject(value))
    return fail('thinking', `'thinking' must be ${shape}, but it was ${describeValue(value)}.`);
  if ('type' in value) {
    checkKeys(value, 'thinking', ['type'], fail);
    if (value.type !== 'adaptive')
      fail(
        'thinking.type',
        `'thinking.type' can only be 'adaptive' (or give { budgetTokens }), but it was ${describeValue(value.type)}.`,
      );
    return { type: 'adaptive' };
  }
  checkKeys(value, 'thinking', ['budgetTokens'], fail);
  const budget = value.budgetTokens;
  if (!(Number.isSafeInteger(budget) && (budget as number) > 0))
    fail(
      'thinking.budgetTokens',
      `'thinking.budgetTokens' must be a whole number of at least 1, but it was ${describeValue(budget)}.`,
    );
  return { budgetTokens: budget as number };
}

function checkCacheControl(value: unknown, fail: Fail): CacheControlOption | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return fail(
      'cacheControl',
      `'cacheControl' must be { at?: 'auto' | 'prefix', ttl?: '5m' | '1h' }, but it was ${describeValue(value)}.`,
    );
  checkKeys(value, 'cacheControl', ['at', 'ttl'], fail);
  if (value.at !== undefined && value.at !== 'auto' && value.at !== 'prefix')
    fail('cacheControl.at', `'cacheControl.at' must be 'auto' or 'prefix', but it was ${describeValue(value.at)}.`);
  if (value.ttl !== undefined && value.ttl !== '5m' && value.ttl !== '1h')
    fail('cacheControl.ttl', `'cacheControl.ttl' must be '5m' or '1h', but it was ${describeValue(value.ttl)}.`);
  return { ...value } as CacheControlOption;
}

function checkMetadata(value: unknown, fail: Fail): MetadataOption | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return fail('metadata', `'metadata' must be { userId: string }, but it was ${describeValue(value)}.`);
  checkKeys(value, 'metadata', ['userId'], fail);
  if (typeof value.userId !== 'string' || value.userId === '')
    fail(
      'metadata.userId',
      `'metadata.userId' must be a non-empty string (an opaque id such as a hash), but it was ` +
        `${describeValue(value.userId)}.`,
    );
  return { userId: value.userId as string };
}

function checkContainer(value: unknown, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    fail(
      'container',
      `'container' must be the id of a code execution container (a string), but it was ${describeValue(value)}.`,
    );
  return value as string;
}

/** The cache breakpoint the options ask for. */
export function cacheControlOf(option: CacheControlOption): CacheControl {
  return option.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: option.ttl };
}

/** The options' request parameters, in the API's words (tools and system are placed by the caller). */
export function requestParameters(options: RequestOptions): Partial<MessagesRequest> {
  const request: Partial<MessagesRequest> = {};
  const choice = options.toolChoice;
  if (choice !== undefined) {
    const { disableParallelToolUse, ...rest } = choice as ToolChoiceOption & { disableParallelToolUse?: boolean };
    request.tool_choice = (
      disableParallelToolUse === undefined ? rest : { ...rest, disable_parallel_tool_use: disableParallelToolUse }
    ) as ToolChoice;
  }
  if (options.stopSequences !== undefined) request.stop_sequences = [...options.stopSequences];
  if (options.thinking !== undefined)
    request.thinking =
      'budgetTokens' in options.thinking
        ? { type: 'enabled', budget_tokens: options.thinking.budgetTokens }
        : { type: 'adaptive' };
  if (options.cacheControl !== undefined && (options.cacheControl.at ?? 'auto') === 'auto')
    request.cache_control = cacheControlOf(options.cacheControl);
  if (options.metadata !== undefined) request.metadata = { user_id: options.metadata.userId };
  return request;
}
