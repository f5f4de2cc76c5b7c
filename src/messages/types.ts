/**
 * The Messages API wire shapes legate sends and receives, in the API's own snake_case.
 * They are declared here rather than borrowed from `@anthropic-ai/sdk` so that every layer
 * (and every transport, the SDK's included) agrees on one small, exact vocabulary.
 */

import type { API_STOP_REASONS, TOOL_RESULT_BLOCK_TYPES, TYPED_BLOCK_TYPES } from './knownValues.js';

export interface TextBlock {
  type: 'text';
  text: string;
  /** Present only when the API attached citations. */
  citations?: unknown[];
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  /** Opaque; must be sent back byte-exact. */
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  /** What the model sent. Nothing guarantees its shape: the binder checks it. */
  input: unknown;
  /**
   * Who made the call, where the API says: `{ type: 'direct' }` (the model), or a server tool
   * (`{ type: 'code_execution_20250825', tool_id: 'srvtoolu_...' }`: programmatic tool calling).
   * Sent back as it came; the API needs it to continue such a conversation.
   */
  caller?: ToolCaller;
  /** For a call of a toolset's member, the toolset it belongs to, where the API names one. */
  toolset_name?: string;
}

/** Who made a tool call, as the API describes it. */
export interface ToolCaller {
  type: string;
  tool_id?: string;
  [field: string]: unknown;
}

/** The block types legate types (and checks) itself: {@link TYPED_BLOCK_TYPES}. */
export type TypedBlockType = (typeof TYPED_BLOCK_TYPES)[number];

/**
 * A response block of a type legate does not type (its `type` is none of {@link TYPED_BLOCK_TYPES}),
 * with every field as the API sent it. The API needs such blocks back exactly as sent.
 */
export interface OtherBlock {
  type: string;
  [field: string]: unknown;
}

/** A block of an assistant response. */
export type ResponseBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | OtherBlock;

/** A prompt-cache breakpoint on a block the caller sends. */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface ImageBlock {
  type: 'image';
  source:
    | { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string }
    | { type: 'url'; url: string }
    | { type: 'file'; file_id: string };
  cache_control?: CacheControl | null;
}

/** A PDF, a plain text, or content of the caller's own chunks, for the model to read and cite. */
export interface DocumentBlock {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'content'; content: string | (TextBlock | ImageBlock)[] }
    | { type: 'url'; url: string }
    | { type: 'file'; file_id: string };
  title?: string | null;
  context?: string | null;
  citations?: { enabled?: boolean } | null;
  cache_control?: CacheControl | null;
}

/** A search result with its source, which the model cites like a web search's. */
export interface SearchResultBlock {
  type: 'search_result';
  source: string;
  title: string;
  content: TextBlock[];
  citations?: { enabled?: boolean };
  cache_control?: CacheControl | null;
}

/** A tool a (custom) tool search found: the API loads its definition. */
export interface ToolReferenceBlock {
  type: 'tool_reference';
  tool_name: string;
  cache_control?: CacheControl | null;
}

/** What a tool result may hold besides plain text: the blocks the API takes in a tool_result. */
export type ToolResultContent = TextBlock | ImageBlock | DocumentBlock | SearchResultBlock | ToolReferenceBlock;

/** The types of {@link ToolResultContent}: {@link TOOL_RESULT_BLOCK_TYPES}. */
export type ToolResultBlockType = (typeof TOOL_RESULT_BLOCK_TYPES)[number];

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | ToolResultContent[];
  is_error?: boolean;
}

export type UserBlock = TextBlock | ImageBlock | ToolResultBlock;

export interface UserMessage {
  role: 'user';
  content: string | UserBlock[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: ResponseBlock[];
}

export type Message = UserMessage | AssistantMessage;

/** A tool as the API is shown it. */
export interface ToolDefinition {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  /** A prompt-cache breakpoint: set on the last tool by `cacheControl: { at: 'prefix' }`. */
  cache_control?: CacheControl;
}

/**
 * A tool the API runs itself (web search, web fetch, code execution, tool search, and any later
 * `type`): sent exactly as given, never run by legate.
 */
export interface ServerToolDefinition {
  type: string;
  name: string;
  [field: string]: unknown;
}

/** A `tools` entry of a request: a tool legate runs, or one the API runs. */
export type RequestTool = ToolDefinition | ServerToolDefinition;

/** How the model may use the tools it is offered. */
export type ToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

/** The system prompt as blocks: how a cache breakpoint is set on it. */
export interface SystemBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

/** One Messages API request. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system?: string | SystemBlock[];
  messages: Message[];
  tools?: RequestTool[];
  tool_choice?: ToolChoice;
  stop_sequences?: string[];
  temperature?: number;
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' } | { type: 'disabled' };
  /** Automatic prompt caching: the API puts the breakpoint on the last cacheable block. */
  cache_control?: CacheControl;
  metadata?: { user_id: string };
  /** The code execution container to reuse. */
  container?: string;
  /** Structured outputs: the answer's text is JSON matching `format.schema` (a run's `output`). */
  output_config?: { format: JsonOutputFormat };
}

/** The API's structured-output format (`output_config.format`): a strict JSON Schema for the answer. */
export interface JsonOutputFormat {
  type: 'json_schema';
  schema: Record<string, unknown>;
}

/** The stop reasons the API gives as of this release: {@link API_STOP_REASONS}. */
export type KnownApiStopReason = (typeof API_STOP_REASONS)[number];

/**
 * Why a response stopped, as the API said it: one of {@link API_STOP_REASONS}, or any reason the
 * API added after this release, kept as sent (a run ends with it; see `nextStep`). Written so an
 * editor still offers the known ones.
 */
export type ApiStopReason = KnownApiStopReason | (string & {});

/**
 * A response's usage, as the API reported it: every field kept as it came (zeros and nulls
 * included), the ones legate knows typed here, any other (`iterations`, `inference_geo`, a
 * counter added after this release) kept beside them.
 */
export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The cache-creation tokens split by the cache entry's lifetime. */
  cache_creation?: {
    ephemeral_5m_input_tokens?: number;
    ephemeral_1h_input_tokens?: number;
    [field: string]: unknown;
  } | null;
  /** Requests server tools made (billed). */
  server_tool_use?: { web_search_requests?: number; web_fetch_requests?: number; [field: string]: unknown } | null;
  /** A breakdown of `output_tokens`. */
  output_tokens_details?: { thinking_tokens?: number; [field: string]: unknown } | null;
  service_tier?: string | null;
  [field: string]: unknown;
}

/** Why the API refused a request, with `stop_reason: 'refusal'`. */
export interface StopDetails {
  type: string;
  category?: string | null;
  explanation?: string | null;
  [field: string]: unknown;
}

/** The code-execution container a response ran in: its id goes back in the next request. */
export interface ResponseContainer {
  id: string;
  expires_at: string;
  [field: string]: unknown;
}

/** One Messages API response: the assistant's message. */
export interface ModelResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ResponseBlock[];
  stop_reason: ApiStopReason | null;
  stop_sequence?: string | null;
  /** Why the request was refused, where the API says (`stop_reason: 'refusal'`). */
  stop_details?: StopDetails | null;
  /** The code-execution container, where one ran. */
  container?: ResponseContainer | null;
  /** What context management changed in the request (`{ applied_edits: [...] }`), as the API reported it. */
  context_management?: unknown;
  usage: ApiUsage;
  /**
   * Set by legate, never by the API (and never sent back): the tool input block `content[index]` was cut off
   * by `max_tokens` mid-stream (no `content_block_stop` came). Its `input` is what `content_block_start` gave
   * (`{}`), not a guess; `partialJson` is the JSON text of the input as far as it arrived.
   */
  incompleteToolUse?: { index: number; partialJson: string };
}
