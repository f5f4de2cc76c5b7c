/*
 * The values of the Messages API that legate knows by name, as lists to check and describe with; their types are
 * declared with the rest of the API's shapes (types.ts), which the public entry re-exports as types only.
 */

/**
 * The block types legate types (and checks) itself. Every other block, a server tool's
 * (`server_tool_use`, `web_search_tool_result`, ...), an MCP connector's, `compaction`, a type
 * added after this release, is an `OtherBlock`: kept, recorded and sent back as it came.
 */
export const TYPED_BLOCK_TYPES = ['text', 'thinking', 'redacted_thinking', 'tool_use'] as const;

/** The types of `ToolResultContent`, in the API's order. */
export const TOOL_RESULT_BLOCK_TYPES = ['text', 'image', 'document', 'search_result', 'tool_reference'] as const;

/**
 * The stop reasons the API gives as of this release, each of which legate handles by name. The API
 * adds others (`model_context_window_exceeded` came after the first ones): see `ApiStopReason`.
 */
export const API_STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
] as const;
