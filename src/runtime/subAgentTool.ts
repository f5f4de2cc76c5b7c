import { defineTool } from '../tools/defineTool.js';
import type { AnyTool } from '../tools/tool.js';
import type { Transport } from '../transport/transport.js';
import { spanContextOfTool } from '../telemetry/toolSpan.js';
import type { AgentDefinition } from './agentDefinition.js';
import { agentsReachableFrom, registerSubAgent, toolsReachableFrom } from './agentGraph.js';
import type { ReplayReferee } from './replayReferee.js';
import { runAgent } from './runAgent.js';
import { SubAgentSuspendedError } from './subAgentSuspendedError.js';

/**
 * An agent as one tool of another (`agent.asTool`): the caller's model sends a request, the agent runs on it, and
 * its answer is the tool's result. Safety composes: if the agent can read untrusted content (directly, through its
 * sub-agents or its handoff targets), the tool is untrusted, so its answer taints the caller; if it can act on the
 * world, the tool is privileged, so a tainted caller cannot reach it. Its usage adds to the caller's.
 */
export function subAgentTool(definition: AgentDefinition, name: string, description: string): AnyTool {
  const { agent } = definition;
  const tool = defineTool({
    name,
    description,
    input: {
      type: 'object',
      properties: { request: { type: 'string', minLength: 1, description: `What to ask ${agent.name}.` } },
      required: ['request'],
    },
    untrusted:
      toolsReachableFrom(agent).some((tool) => tool.untrusted) ||
      agentsReachableFrom(agent).some((other) => other.serverTools.some((tool) => tool.untrusted)),
    privileged: toolsReachableFrom(agent).some((tool) => tool.privileged),
    run: async ({ request }, ctx) => {
      // A sub-agent's run reads its caller's clock and signal; inside a recorded or replayed call,
      // its model calls go where the caller's run keeps them. The rest of its run is its own.
      const transport = ctx.subTransport?.() as Transport | undefined;
      const replay = ctx.subReplay?.() as ReplayReferee | undefined;
      const result = await runAgent(
        definition,
        request,
        {
          signal: ctx.signal,
          clock: () => ctx.now(),
          ...(transport === undefined ? {} : { transport }),
          ...(replay === undefined ? {} : { replay }),
        },
        { parent: spanContextOfTool(ctx) },
      );
      ctx.reportUsage?.(result.usage);
      ctx.reportSubRun?.(result);
      if (result.stopReason === 'suspended') throw new SubAgentSuspendedError(agent.name);
      return result.text;
    },
  });
  registerSubAgent(tool, agent);
  return tool;
}
