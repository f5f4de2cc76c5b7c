import { describeValue } from '../json/describeValue.js';
import { unknownOptionMessage } from '../tools/unknownOption.js';
import type { AnyTool } from '../tools/tool.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { ServerToolDefinition } from '../messages/types.js';
import { checkCompensators, serverToolsByName, splitTools, toolsByName } from './agentTools.js';
import {
  checkRequestOptions,
  type CacheControlOption,
  type MetadataOption,
  type RequestOptions,
  type ThinkingOption,
  type ToolChoiceOption,
} from './requestOptions.js';
import { isTransport, type Transport } from '../transport/transport.js';
import type { Authorizer } from '../guard/authorizer.js';
import { checkRules, ruleShapeProblem } from '../guard/checkRules.js';
import type { Rule } from '../guard/rules.js';
import type { ExecutionMode } from '../guard/shadow.js';
import { defineTool } from '../tools/defineTool.js';
import { TAINT_POLICIES, type TaintPolicy } from '../tools/taintPolicy.js';
import type { Agent } from './Agent.js';
import { handoffChain } from './agentGraph.js';
import { handoffToolName, transferredMessage } from './handoff.js';
import { LegateError } from '../errors/LegateError.js';
import { telemetryOptionProblem, type TelemetryOptions } from '../telemetry/telemetryOptions.js';

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
  handoffs?: { name: string; agent: Agent; description: string }[];
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

/** A handoff as the agent keeps it: the target and the tool that transfers to it. */
export interface HandoffTarget {
  name: string;
  agent: Agent;
  description: string;
  toolName: string;
}

export const DEFAULT_MAX_TURNS = 10;
/** The shortest `suspensionKey` accepted: the HMAC-SHA256 block's security needs 256 bits of key. */
export const MIN_SUSPENSION_KEY_BYTES = 32;
export const DEFAULT_MAX_TOKENS = 4096;

/** An agent was constructed with options it cannot run with. */
export class AgentConfigurationError extends LegateError {
  readonly code = 'invalid_agent_option';
  constructor(
    /** The option at fault, e.g. `transport`, `tools[2]`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Every option an agent takes; the type below fails to compile if one is missing. A misspelt option is refused, never
 * ignored.
 */
const AGENT_OPTIONS = [
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

/** Checks everything an agent is given, so that no mistake waits until the first run. */
export function checkAgentOptions(options: AgentOptions): {
  tools: Map<string, AnyTool>;
  serverTools: Map<string, ServerTool>;
  handoffTools: { target: HandoffTarget; tool: AnyTool }[];
  request: RequestOptions;
} {
  if (typeof options !== 'object' || options === null) {
    throw new AgentConfigurationError(
      'options',
      `An agent needs options ({ name, model, transport, tools }), but it was given ${describeValue(options)}.`,
    );
  }
  const name = typeof options.name === 'string' && options.name.trim() !== '' ? options.name : undefined;
  if (name === undefined)
    throw new AgentConfigurationError(
      'name',
      `An agent needs a name (a non-empty string), but it was ${describeValue(options.name)}.`,
    );
  const fail = (option: string, message: string): never => {
    throw new AgentConfigurationError(option, `Agent '${name}': ${message}`);
  };
  for (const key of Object.keys(options)) {
    if (!(AGENT_OPTIONS as readonly string[]).includes(key))
      fail(key, unknownOptionMessage(key, AGENT_OPTIONS, { one: 'an option of an agent', all: 'options' }));
  }
  if (typeof options.model !== 'string' || options.model.trim() === '')
    fail(
      'model',
      `'model' must be a model id such as 'claude-sonnet-5-5', but it was ${describeValue(options.model)}.`,
    );
  const telemetry = telemetryOptionProblem('telemetry', options.telemetry);
  if (telemetry !== undefined) fail('telemetry', telemetry);
  if (options.transport === undefined || options.transport === null) {
    fail(
      'transport',
      'there is no transport, so nothing can answer the agent. Pass { transport: new AnthropicTransport() } ' +
        'for the live model, or a ScriptedTransport in tests.',
    );
  }
  if (!isTransport(options.transport))
    fail('transport', `'transport' must have a send(request) method, but it was ${describeValue(options.transport)}.`);
  if (options.system !== undefined && typeof options.system !== 'string')
    fail('system', `'system' must be a string, but it was ${describeValue(options.system)}.`);
  checkPositiveInteger(options.maxTurns, 'maxTurns', fail);
  checkPositiveInteger(options.maxHandoffs, 'maxHandoffs', fail);
  if (options.approvalRequired !== undefined && typeof options.approvalRequired !== 'function') {
    fail(
      'approvalRequired',
      `'approvalRequired' must be a function (tool, input) => boolean, but it was ` +
        `${describeValue(options.approvalRequired)}.`,
    );
  }
  checkPositiveInteger(options.maxTokens, 'maxTokens', fail);
  if (
    options.temperature !== undefined &&
    !(typeof options.temperature === 'number' && Number.isFinite(options.temperature))
  ) {
    fail('temperature', `'temperature' must be a number, but it was ${describeValue(options.temperature)}.`);
  }
  if (options.clock !== undefined && typeof options.clock !== 'function')
    fail('clock', `'clock' must be a function returning a Date, but it was ${describeValue(options.clock)}.`);
  if (options.mode !== undefined && options.mode !== 'live' && options.mode !== 'shadow')
    fail('mode', `'mode' must be 'live' or 'shadow', but it was ${describeValue(options.mode)}.`);
  if (options.authorizer !== undefined && typeof options.authorizer !== 'function')
    fail(
      'authorizer',
      `'authorizer' must be a function (policy) => boolean, such as policies('payments'), but it was ` +
        `${describeValue(options.authorizer)}.`,
    );
  checkSuspensionKey(options.suspensionKey, fail);
  if (options.onTaint !== undefined && !(TAINT_POLICIES as readonly unknown[]).includes(options.onTaint))
    fail('onTaint', `'onTaint' must be 'block' or 'approve', but it was ${describeValue(options.onTaint)}.`);
  const handoffTools = handoffsOf(name, options.handoffs ?? [], fail);
  const { defined, server } = splitTools(options.tools ?? [], fail);
  const tools = toolsByName(name, [...defined, ...handoffTools.map((h) => h.tool)], fail);
  const serverTools = serverToolsByName(name, server, tools);
  checkCompensators(tools, fail);
  const request = checkRequestOptions(options, [...tools.keys(), ...serverTools.keys()], fail);
  if (options.rules !== undefined && !Array.isArray(options.rules))
    fail(
      'rules',
      `'rules' must be a list such as [rules.terminal('close_ticket')], but it was ${describeValue(options.rules)}.`,
    );
  (options.rules ?? []).forEach((rule: unknown, i) => {
    const problem = ruleShapeProblem(rule);
    if (problem !== undefined) fail(`rules[${i}]`, `rules[${i}] ${problem}.`);
  });
  checkRules(name, options.rules ?? [], [...tools.keys()]);
  return { tools, serverTools, handoffTools, request };
}

/**
 * Each handoff target becomes a transfer tool. Targets must already exist, and no chain of
 * transfers may lead back to this agent: handoff graphs are acyclic.
 */
function handoffsOf(
  agent: string,
  handoffs: unknown,
  fail: (option: string, message: string) => never,
): { target: HandoffTarget; tool: AnyTool }[] {
  if (!Array.isArray(handoffs))
    return fail(
      'handoffs',
      `'handoffs' must be a list of { name, agent, description }, but it was ${describeValue(handoffs)}.`,
    );
  return handoffs.map((entry: { name?: unknown; agent?: unknown; description?: unknown }, i) => {
    if (typeof entry?.name !== 'string' || entry.name === '')
      fail(`handoffs[${i}].name`, `a handoff needs a name, but it was ${describeValue(entry?.name)}.`);
    const target = entry.agent as Agent | undefined;
    if (typeof target !== 'object' || target === null || typeof (target as Agent).run !== 'function') {
      fail(
        `handoffs[${i}].agent`,
        `handoff '${String(entry.name)}' needs the agent to transfer to, constructed already, but it was ` +
          `${describeValue(target)}.`,
      );
    }
    const path = handoffChain(target as Agent, (other) => other.name === agent)?.map((other) => other.name);
    if (path !== undefined)
      fail(
        `handoffs[${i}]`,
        `handing off to '${(target as Agent).name}' makes a cycle (${[agent, ...path].join(' → ')}). Handoff ` +
          'graphs must be acyclic: give the last agent in the chain the final say instead.',
      );
    const name = entry.name as string;
    const description =
      typeof entry.description === 'string' && entry.description !== ''
        ? entry.description
        : `Transfers the conversation to ${name}.`;
    const toolName = handoffToolName(name);
    const tool = defineTool({
      name: toolName,
      description: `${description} Transfers the whole conversation; ${name} answers from then on.`,
      input: {
        type: 'object',
        properties: { reason: { type: 'string', description: 'Why the conversation is being transferred.' } },
      },
      // The runtime performs the transfer itself; this only answers if the tool is called outside a run.
      run: () => transferredMessage(name),
    });
    return { target: { name, agent: target as Agent, description, toolName }, tool };
  });
}

function checkSuspensionKey(key: unknown, fail: (option: string, message: string) => never): void {
  if (key === undefined) return;
  const bytes =
    typeof key === 'string' ? Buffer.byteLength(key, 'utf8') : key instanceof Uint8Array ? key.byteLength : undefined;
  if (bytes === undefined || bytes < MIN_SUSPENSION_KEY_BYTES) {
    const given = bytes === undefined ? describeValue(key) : `${bytes} byte${bytes === 1 ? '' : 's'} long`;
    fail(
      'suspensionKey',
      `'suspensionKey' must be a string or Uint8Array of at least ${MIN_SUSPENSION_KEY_BYTES} bytes, so that ` +
        `signatures cannot be guessed, but it was ${given}. Use randomBytes(${MIN_SUSPENSION_KEY_BYTES}) kept in ` +
        'your secret store, or leave it out to resume unsigned suspensions.',
    );
  }
}

function checkPositiveInteger(value: unknown, option: string, fail: (option: string, message: string) => never): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) > 0)) {
    fail(option, `'${option}' must be a whole number of at least 1, but it was ${describeValue(value)}.`);
  }
}
