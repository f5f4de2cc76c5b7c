// legate: the public API. Anything not exported here may change without notice.

// Tools: declaring them, binding the model's input, shaping their output.
export * from './tools/index.js';

// The Messages API shapes legate speaks.
export type * from './messages/types.js';
export { parseModelResponse, ModelResponseError } from './messages/parseModelResponse.js';

// Transports: where responses come from.
export { TransportError, type Transport, type SendOptions, type StreamEvent } from './transport/transport.js';
export { AnthropicTransport, type AnthropicTransportOptions } from './transport/anthropic/AnthropicTransport.js';
export { ScriptedTransport, ScriptExhaustedError, ScriptNotDoneError, type ScriptStep } from './transport/scripted/ScriptedTransport.js';
export { reply, type ScriptedReply, type ScriptedToolUse, type ToolCallSpec } from './transport/scripted/scriptedReply.js';

// The runtime: agents and what their runs produce.
export { Agent, type RunOptions } from './runtime/Agent.js';
export { AgentConfigurationError, DEFAULT_MAX_TOKENS, DEFAULT_MAX_TURNS, type AgentOptions } from './runtime/agentOptions.js';
export type { AgentResult, StopReason, ToolCall, ToolCallOutcome, ToolCallError, ToolFailure, UnknownTool, Usage } from './runtime/agentResult.js';
export type { AgentEvent, AgentEventListener } from './runtime/events.js';
