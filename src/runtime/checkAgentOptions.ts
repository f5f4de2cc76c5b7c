import { describeValue } from '../json/describeValue.js';
import { checkRules, ruleShapeProblem } from '../guard/checkRules.js';
import { TAINT_POLICIES } from '../tools/taintPolicy.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { AnyTool } from '../tools/tool.js';
import { unknownOptionMessage } from '../tools/unknownOption.js';
import { isTransport } from '../transport/transport.js';
import { telemetryOptionProblem } from '../telemetry/telemetryOptions.js';
import { AgentConfigurationError } from './agentConfigurationError.js';
import type { HandoffTarget } from './agentNode.js';
import { AGENT_OPTIONS, MIN_SUSPENSION_KEY_BYTES, type AgentOptions } from './agentOptions.js';
import { checkCompensators, serverToolsByName, splitTools, toolsByName } from './agentTools.js';
import { handoffTargetsOf } from './handoffTargets.js';
import { checkRequestOptions, type RequestOptions } from './requestOptions.js';

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
  const handoffTools = handoffTargetsOf(name, options.handoffs ?? [], fail);
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
