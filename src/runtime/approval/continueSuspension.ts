import type { InvocationStart } from '../../telemetry/invocationSpan.js';
import { definitionOf, type AgentDefinition } from '../agentDefinition.js';
import { agentsReachableFrom } from '../agentGraph.js';
import type { AgentResult } from '../agentResult.js';
import { resolveRunConfig, tracedConfig } from '../resolveRunConfig.js';
import type { RunConfig } from '../runConfig.js';
import type { RecoverOptions, ResumeOptions, RunSettingsOptions } from '../runOptions.js';
import { withOutput } from '../structuredOutput.js';
import { withRunSignal } from '../withRunSignal.js';
import type { Decisions } from './approvalDecision.js';
import { resumeRun, type ResumeRunOptions } from './resumeRun.js';
import type { Suspension } from '../agentResult.js';

/**
 * What a suspended run continues with: the run's settings from the agent the resume is called on (where the run
 * began) and the call's options, as `run` would take them; the agent half of the agent in charge (it may have
 * stopped after a handoff), which signs and checks with its key, else the run's.
 */
export function suspendedRunConfig(
  started: AgentDefinition,
  suspension: Suspension,
  options: RunSettingsOptions,
): RunConfig {
  const inCharge = agentsReachableFrom(started.agent, 'handoffs').find((other) => other.name === suspension.agent);
  return resolveRunConfig(started, options, definitionOf(inCharge) ?? started);
}

/** A resume or a recovery, checked and claimed: the suspended run carried on, traced as one invocation. */
export function continueSuspension(
  started: AgentDefinition,
  config: RunConfig,
  suspension: Suspension,
  decisions: Decisions,
  options: ResumeOptions | RecoverOptions,
  going: ResumeRunOptions,
): Promise<AgentResult> {
  return withRunSignal(options, async (signal, log) => {
    const traced = tracedConfig(config, started, resumedInvocation(config, suspension, decisions), options.telemetry);
    return traced.run.trace.around(async () =>
      withOutput(await resumeRun(traced, suspension, decisions, signal, log, going), config.run.output),
    );
  });
}

/** A resume's invocation: the agent in charge, the suspended run's id, the people's decisions. */
function resumedInvocation(config: RunConfig, suspension: Suspension, decisions: Decisions): InvocationStart {
  const ids = (approve: boolean) =>
    suspension.pending.filter((p) => decisions.get(p.id)?.approve === approve).map((p) => p.id);
  return {
    agent: config.agent.name,
    model: config.agent.model,
    runId: suspension.runId,
    resumed: { approved: ids(true), denied: ids(false) },
    usageBefore: suspension.state.usage,
  };
}
