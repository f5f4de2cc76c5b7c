/**
 * The Messages API wire shapes legate sends and receives, in the API's own snake_case.
 * They are declared here rather than borrowed from `@anthropic-ai/sdk` so that every layer
 * (and every transport, the SDK's included) agrees on one small, exact vocabulary.
 */

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

/**
 * The block types legate types (and checks) itself. Every other block, a server tool's
 * (`server_tool_use`, `web_search_tool_result`, ...), an MCP connector's, `compaction`, a type
 * added after this release, is an {@link OtherBlock}: kept, recorded and sent back as it came.
 */
export const TYPED_BLOCK_TYPES = ['text', 'thinking', 'redacted_thinking', 'tool_use'] as const;
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

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
}

/** What a tool result may hold besides plain text. */
export type ToolResultContent = TextBlock | ImageBlock;

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
}

/** One Messages API request. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system?: string;
  messages: Message[];
  tools?: ToolDefinition[];
  temperature?: number;
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
  /** Structured outputs: the answer's text is JSON matching `format.schema` (a run's `output`). */
  output_config?: { format: JsonOutputFormat };
}

/** The API's structured-output format (`output_config.format`): a strict JSON Schema for the answer. */
export interface JsonOutputFormat {
  type: 'json_schema';
  schema: Record<string, unknown>;
}

/** Every stop reason the API can give. */
export const API_STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
] as const;
export type ApiStopReason = (typeof API_STOP_REASONS)[number];

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
