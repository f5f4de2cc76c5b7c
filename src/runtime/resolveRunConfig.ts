import type { Context } from '@opentelemetry/api';
import { compileRules, toolFacts, type ToolFacts } from '../guard/guardContext.js';
import { prepareOutput } from '../tools/output/prepareOutput.js';
import type { InvocationStart } from '../telemetry/invocationSpan.js';
import { RunTrace } from '../telemetry/runTrace.js';
import { recordsContent, type TelemetryOptions } from '../telemetry/telemetryOptions.js';
import { definitionOf, visibleToolsOf, type AgentDefinition } from './agentDefinition.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_MAX_TURNS } from './agentOptions.js';
import { DEFAULT_MAX_HANDOFFS } from './handoff.js';
import { refereeOf } from './replayReferee.js';
import type { AgentSettings, RunConfig, RunSettings } from './runConfig.js';
import type { RunSettingsOptions } from './runOptions.js';

/**
 * The configuration a run starts, resumes or recovers with: every default and every precedence of a run's settings
 * is here. The run's half comes from the call's options, else from the agent the call is made on (`started`: where
 * the run began); the agent's half from the agent in charge (`inCharge`: a suspended run's may be a handoff target),
 * and at a handoff from the target alone. See docs/composition.md, "Run settings and agent settings".
 */
export function resolveRunConfig(
  started: AgentDefinition,
  options: RunSettingsOptions,
  inCharge: AgentDefinition = started,
): RunConfig {
  const o = started.options;
  const transport = options.transport ?? o.transport;
  const run: RunSettings = {
    transport,
    replay: refereeOf(transport, options.replay),
    now: options.clock ?? started.clock,
    stub: options.toolStub,
    maxHandoffs: o.maxHandoffs ?? DEFAULT_MAX_HANDOFFS,
    mode: o.mode ?? 'live',
    suspensionKey: o.suspensionKey,
    output: options.output === undefined ? undefined : prepareOutput(options.output),
    trace: RunTrace.none,
  };
  return { run, agent: agentSettings(inCharge) };
}

/**
 * The configuration with its run traced as one invocation (`invoke_agent`) of an agent: its conversation recorded on
 * the spans as the call's `telemetry` says, else as the agent the call is made on says.
 */
export function tracedConfig(
  config: RunConfig,
  started: AgentDefinition,
  start: InvocationStart,
  telemetry: TelemetryOptions | undefined,
  parent?: Context,
): RunConfig {
  const content = recordsContent(telemetry, started.options.telemetry);
  return { run: { ...config.run, trace: RunTrace.start(start, { content, parent }) }, agent: config.agent };
}

/** An agent's part of a run while it is in charge: its prompt, tools, rules and limits. */
function agentSettings(definition: AgentDefinition): AgentSettings {
  const o = definition.options;
  const approvalRequired = o.approvalRequired;
  return {
    name: o.name,
    model: o.model,
    system: o.system,
    visibleTools: visibleToolsOf(definition),
    facts: new Map(
      [...definition.tools].map(([name, tool]): [string, ToolFacts] => [name, toolFacts(tool, o.onTaint)]),
    ),
    rules: compileRules(o.rules ?? []),
    maxTurns: o.maxTurns ?? DEFAULT_MAX_TURNS,
    maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: o.temperature,
    serverTools: definition.serverTools,
    request: definition.request,
    approvalRequired:
      approvalRequired === undefined ? undefined : (tool, args) => approvalRequired(tool, args) === true,
    handoffs: new Map(
      definition.handoffs.map((target) => [
        target.toolName,
        // Every target was checked to be a constructed agent when this one was (handoffTargets.ts).
        { name: target.agent.name, settings: () => agentSettings(definitionOf(target.agent)!) },
      ]),
    ),
    mode: o.mode ?? 'live',
    suspensionKey: o.suspensionKey,
    onTaint: o.onTaint,
  };
}
