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
}

/** Blocks produced by server-side tools (web search and friends). legate stores and resends them as they came. */
export interface ServerBlock {
  type: ServerBlockType;
  [field: string]: unknown;
}

export const SERVER_BLOCK_TYPES = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
] as const;
export type ServerBlockType = (typeof SERVER_BLOCK_TYPES)[number];

/** A block of an assistant response. */
export type ResponseBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ServerBlock;

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

export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
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
  usage: ApiUsage;
  /**
   * Set by legate, never by the API (and never sent back): the tool input block `content[index]` was cut off
   * by `max_tokens` mid-stream (no `content_block_stop` came). Its `input` is what `content_block_start` gave
   * (`{}`), not a guess; `partialJson` is the JSON text of the input as far as it arrived.
   */
  incompleteToolUse?: { index: number; partialJson: string };
}
