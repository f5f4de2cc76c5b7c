import { systemText } from '../messages/systemText.js';
import type { MessagesRequest, RequestTool } from '../messages/types.js';
import type { RecordedRequest } from './types.js';

/**
 * A request's parameters as a trajectory's header records them: the one translation from the
 * API's words to the file's, used to record a request and to compare a live one with it. The
 * container is the one the request carried; the header keeps the first request's (the agent's).
 */
export function recordedRequestOf(request: MessagesRequest): RecordedRequest {
  const recorded: RecordedRequest = { model: request.model, maxTokens: request.max_tokens };
  if (request.temperature !== undefined) recorded.temperature = request.temperature;
  const thinking = request.thinking;
  if (thinking?.type === 'enabled') recorded.thinking = { budgetTokens: thinking.budget_tokens };
  if (thinking?.type === 'adaptive') recorded.thinking = { type: 'adaptive' };
  const choice = request.tool_choice;
  if (choice !== undefined) {
    recorded.toolChoice = { type: choice.type };
    if (choice.type === 'tool') recorded.toolChoice.name = choice.name;
    if (choice.type !== 'none' && choice.disable_parallel_tool_use !== undefined)
      recorded.toolChoice.disableParallelToolUse = choice.disable_parallel_tool_use;
  }
  if (request.stop_sequences !== undefined) recorded.stopSequences = [...request.stop_sequences];
  const cache = cacheControlOf(request);
  if (cache !== undefined) recorded.cacheControl = cache;
  if (request.metadata !== undefined) recorded.metadata = { userId: request.metadata.user_id };
  if (request.container !== undefined) recorded.container = request.container;
  const system = systemText(request.system);
  if (system !== undefined) recorded.system = system;
  if (request.output_config !== undefined) recorded.output = request.output_config.format.schema;
  return recorded;
}

/** Where the request put its cache breakpoints: top level (`auto`), or on the system prompt and tools (`prefix`). */
function cacheControlOf(request: MessagesRequest): RecordedRequest['cacheControl'] {
  const marked = [
    request.cache_control,
    ...(typeof request.system === 'object' ? request.system.map((block) => block.cache_control) : []),
    ...(request.tools ?? []).map((tool: RequestTool) => tool.cache_control as { ttl?: '5m' | '1h' } | undefined),
  ].find((control) => control !== undefined);
  if (marked === undefined) return undefined;
  const at = request.cache_control !== undefined ? 'auto' : 'prefix';
  return marked.ttl === undefined ? { at } : { at, ttl: marked.ttl };
}

/** The header's parameters with every key present, so two of them compare key by key. */
export function comparableParameters(recorded: RecordedRequest): Required<Omit<RecordedRequest, never>> {
  return {
    model: recorded.model,
    maxTokens: recorded.maxTokens,
    temperature: recorded.temperature,
    thinking: recorded.thinking,
    toolChoice: recorded.toolChoice,
    stopSequences: recorded.stopSequences,
    cacheControl: recorded.cacheControl,
    metadata: recorded.metadata,
    container: recorded.container,
    system: recorded.system,
    output: recorded.output,
  } as Required<RecordedRequest>;
}
