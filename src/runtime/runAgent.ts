import { randomUUID } from 'node:crypto';
import type { Context } from '@opentelemetry/api';
import { copyValue } from '../json/copyValue.js';
import type { Message, UserBlock } from '../messages/types.js';
import { guardStateOfHistory, mergeGuardStates } from '../guard/historyGuardState.js';
import { serverToolUntrusted } from '../tools/serverTool.js';
import type { AgentDefinition } from './agentDefinition.js';
import { historyToolsOf } from './agentGraph.js';
import type { AgentResult } from './agentResult.js';
import { checkedGuardState, checkedHistory, checkRunInput, checkTelemetryOption } from './checkRunOptions.js';
import { resolveRunConfig, tracedConfig } from './resolveRunConfig.js';
import type { RunSettings } from './runConfig.js';
import { runLoop } from './runLoop.js';
import type { RunOptions } from './runOptions.js';
import { initialRunState } from './runState.js';
import { withOutput } from './structuredOutput.js';
import { withRunSignal } from './withRunSignal.js';

/** Who follows a run from outside it. */
interface RunFollowers {
  /** Told the run's settings once they are read (a stream follows the output's progress). */
  settled?: (settings: RunSettings) => void;
  /** The span context of the tool call a sub-agent runs in. */
  parent?: Context;
}

/**
 * A run of an agent on one input (`agent.run`): to the end of the conversation, of its turns, or until a call needs
 * approval. It starts from the guard state its history carries, made stricter by a `guard` given with it.
 */
export async function runAgent(
  definition: AgentDefinition,
  input: string | UserBlock[],
  options: RunOptions,
  follow: RunFollowers = {},
): Promise<AgentResult> {
  checkRunInput(input);
  checkTelemetryOption('telemetry', options.telemetry);
  const history = checkedHistory(options.history);
  const given = options.guard === undefined ? undefined : checkedGuardState(options.guard);
  return withRunSignal(options, async (signal, log) => {
    const messages: Message[] = [...history, { role: 'user', content: copyValue(input) }];
    const fromHistory = guardStateOfHistory(messages, historyToolsOf(definition.agent), (name) =>
      serverToolUntrusted(definition.serverTools, name),
    );
    const guard = given === undefined ? fromHistory : mergeGuardStates(fromHistory, given);
    const runId = randomUUID();
    const { name, model } = definition.options;
    const start = { agent: name, model, runId };
    const config = tracedConfig(
      resolveRunConfig(definition, options),
      definition,
      start,
      options.telemetry,
      follow.parent,
    );
    follow.settled?.(config.run);
    return config.run.trace.around(async () => {
      log.emit({ type: 'run_started', agent: name });
      const result = await runLoop(config, initialRunState(messages, guard), runId, signal, log);
      return withOutput(result, config.run.output);
    });
  });
}
