import type { ServerToolDefinition } from '../messages/types.js';
import type { Authorizer } from '../guard/authorizer.js';
import type { Rule } from '../guard/rules.js';
import type { ExecutionMode } from '../guard/shadow.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { TaintPolicy } from '../tools/taintPolicy.js';
import type { AnyTool } from '../tools/tool.js';
import type { Transport } from '../transport/transport.js';
import type { TelemetryOptions } from '../telemetry/telemetryOptions.js';
import type { AgentNode } from './agentNode.js';
import type { CacheControlOption, MetadataOption, ThinkingOption, ToolChoiceOption } from './requestOptions.js';

export interface AgentOptions {
  /** Names the agent in results, events and (later) trajectories. */
  name: string;
  /** The model id, e.g. `claude-sonnet-5-5`. */
  model: string;
  /** The system prompt. */
  system?: string;
  /**
   * The tools the model may call: tools made with defineTool (legate runs them), and server tools
   * (the API runs them): a definition such as `{ type: 'web_search_20250305', name: 'web_search' }`,
   * sent as given, or `serverTool(definition, { untrusted })` to say whether its results taint.
   */
  tools?: (AnyTool | ServerTool | ServerToolDefinition)[];
  /**
   * Where responses come from: `AnthropicTransport`, `ScriptedTransport`, a replay. A run's
   * setting: used by runs that start (or resume) on this agent, not when a handoff reaches it.
   */
  transport: Transport;
  /** Model calls allowed in one run. Default 10. */
  maxTurns?: number;
  /** `max_tokens` for each model call. Default 4096. */
  maxTokens?: number;
  temperature?: number;
  /** Extended thinking: `{ budgetTokens }`, or `{ type: 'adaptive' }` where the model supports it. */
  thinking?: ThinkingOption;
  /** How the model may use its tools (the request's `tool_choice`). Default: the API's (`auto`). */
  toolChoice?: ToolChoiceOption;
  /** Text sequences that stop the model (`stop_sequence` stop reason). */
  stopSequences?: string[];
  /**
   * Prompt caching: `{ at: 'auto' }` (the request's top-level `cache_control`) or `{ at: 'prefix' }`
   * (breakpoints on the system prompt and the last tool); `ttl` `5m` or `1h`.
   */
  cacheControl?: CacheControlOption;
  /** Request metadata: `{ userId }`, an opaque id of the end user. */
  metadata?: MetadataOption;
  /**
   * The code execution container every request uses. Without one, once a response names a
   * container, every later request of the run reuses it.
   */
  container?: string;
  /**
   * The clock tools read through `ctx.now()`. Default: the system clock. A run's setting: read in
   * runs that start (or resume) on this agent, not when a handoff reaches it.
   */
  clock?: () => Date;
  /** Tool contracts: `rules.require(...)`, `rules.terminal(...)`, `rules.limit(...)`. */
  rules?: Rule[];
  /** Grants the policies of policy-gated tools; without one, such tools are hidden. */
  authorizer?: Authorizer;
  /**
   * `shadow`: privileged tools are planned for review instead of run. Default `live`. Shadow if
   * the run is (it started on a shadow agent) or this agent is: after a handoff too.
   */
  mode?: ExecutionMode;
  /** Agents the model may hand the conversation to, each through a `handoff_to_{name}` tool. */
  handoffs?: { name: string; agent: AgentNode; description: string }[];
  /** Transfers allowed in one run that starts on this agent. Default 3. */
  maxHandoffs?: number;
  /** Calls for which this returns true stop the run until a person approves or denies them. */
  approvalRequired?: (tool: AnyTool, input: unknown) => boolean;
  /**
   * Signs every suspension with HMAC-SHA256 under this key, and resumes only suspensions that
   * carry a valid signature: a store's writer without the key cannot forge or alter one. At least
   * {@link MIN_SUSPENSION_KEY_BYTES} bytes (a string counts its UTF-8 bytes): 32 random bytes, e.g.
   * `randomBytes(32)` or a 64-digit hex string. In a handoff graph, each agent signs what it suspends
   * with its own key (or, without one, the key of the agent the run started with).
   */
  suspensionKey?: string | Uint8Array;
  /**
   * What a tainted run does with a call of a privileged tool that provenance does not clear:
   * `block` (refused, rule `taint`) or `approve` (held for a person, as `approvalRequired` holds a
   * call). A tool's own `onTaint` wins. Default `block`. See docs/safety.md.
   */
  onTaint?: TaintPolicy;
  /**
   * Its runs' OpenTelemetry spans: `{ recordContent: true }` records the conversation on them (default: the
   * environment's OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, else none). See docs/scale.md.
   */
  telemetry?: TelemetryOptions;
}

export const DEFAULT_MAX_TURNS = 10;
/** The shortest `suspensionKey` accepted: the HMAC-SHA256 block's security needs 256 bits of key. */
export const MIN_SUSPENSION_KEY_BYTES = 32;
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * Every option an agent takes; the type below fails to compile if one is missing. A misspelt option is refused, never
 * ignored.
 */
export const AGENT_OPTIONS = [
  'name',
  'model',
  'system',
  'tools',
  'transport',
  'maxTurns',
  'maxTokens',
  'temperature',
  'thinking',
  'toolChoice',
  'stopSequences',
  'cacheControl',
  'metadata',
  'container',
  'clock',
  'rules',
  'authorizer',
  'mode',
  'handoffs',
  'maxHandoffs',
  'approvalRequired',
  'suspensionKey',
  'onTaint',
  'telemetry',
] as const;
const agentOptionsComplete: [Exclude<keyof AgentOptions, (typeof AGENT_OPTIONS)[number]>] extends [never]
  ? true
  : never = true;
void agentOptionsComplete;
