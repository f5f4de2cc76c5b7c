import type { HistoryTool } from '../guard/historyGuardState.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { AnyTool } from '../tools/tool.js';
import type { AgentNode } from './agentNode.js';
import { toolUnderPolicy } from './toolPosture.js';

/**
 * The agent graph, walked in one place. Its edges: an agent's handoff targets (they can take
 * charge of its run) and the agents behind its tools made by `asTool` (they run inside a call).
 * Every walk here is depth first in declaration order (handoffs, then tools), visits each agent
 * once, and ends on any graph, a cyclic one included.
 */

/** Which edges a walk follows: handoffs only (who can be in charge of a run), or sub-agents too (who can run in it). */
type AgentEdges = 'handoffs' | 'handoffs and sub-agents';

const subAgents = new WeakMap<AnyTool, AgentNode>();

/** Records that a tool runs an agent (`agent.asTool` does). */
export function registerSubAgent(tool: AnyTool, agent: AgentNode): void {
  subAgents.set(tool, agent);
}

/** The agent behind a tool made by `agent.asTool`, if it is one. */
export function subAgentOf(tool: AnyTool): AgentNode | undefined {
  return subAgents.get(tool);
}

function neighbours(agent: AgentNode, edges: AgentEdges): AgentNode[] {
  const targets = agent.handoffs.map((handoff) => handoff.agent);
  return edges === 'handoffs' ? targets : [...targets, ...agent.tools.flatMap((tool) => subAgentOf(tool) ?? [])];
}

/** The agents a run of this one can reach through the edges, itself first, each once. */
export function agentsReachableFrom(agent: AgentNode, edges: AgentEdges = 'handoffs and sub-agents'): AgentNode[] {
  const seen = new Set<AgentNode>();
  const order: AgentNode[] = [];
  const stack = [agent];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    order.push(next);
    stack.push(...neighbours(next, edges).reverse());
  }
  return order;
}

/**
 * Every tool a run of this agent can reach (its own, its handoff targets' and its sub-agents', at
 * any depth, hidden ones included), each once, in walk order: where two agents have tools of one
 * name, the nearer comes first.
 */
export function toolsReachableFrom(agent: AgentNode): AnyTool[] {
  return [...new Set(agentsReachableFrom(agent).flatMap((other) => other.tools))];
}

/** The tools {@link toolsReachableFrom} lists, each as a trajectory's header describes it: under its agent's policy. */
export function postureToolsReachableFrom(agent: AgentNode): AnyTool[] {
  const seen = new Set<AnyTool>();
  return agentsReachableFrom(agent).flatMap((other) =>
    other.tools.filter((tool) => !seen.has(tool) && seen.add(tool)).map((tool) => toolUnderPolicy(tool, other.onTaint)),
  );
}

/** Every server tool a run of this agent can reach (its own, its handoff targets', its sub-agents'), in walk order. */
export function serverToolsReachableFrom(agent: AgentNode): ServerTool[] {
  return [...new Set(agentsReachableFrom(agent).flatMap((other) => other.serverTools))];
}

/** The first chain of handoffs from an agent (itself first) to one that matches, or undefined. */
export function handoffChain(from: AgentNode, matches: (agent: AgentNode) => boolean): AgentNode[] | undefined {
  const seen = new Set<AgentNode>();
  const search = (agent: AgentNode): AgentNode[] | undefined => {
    if (seen.has(agent)) return undefined;
    seen.add(agent);
    if (matches(agent)) return [agent];
    for (const handoff of agent.handoffs) {
      const rest = search(handoff.agent);
      if (rest !== undefined) return [agent, ...rest];
    }
    return undefined;
  };
  return search(from);
}

/**
 * How a history's tool names are attributed: to the tools of every agent the run can reach
 * (hidden ones, handoff targets' and sub-agents' included). A name is untrusted if any of them
 * reads untrusted content under it, and terminal if an agent that can be in charge ends on it.
 */
export function historyToolsOf(agent: AgentNode): (name: string) => HistoryTool | undefined {
  const tools = new Map<string, HistoryTool>();
  for (const tool of toolsReachableFrom(agent)) {
    tools.set(tool.name, { untrusted: tool.untrusted || tools.get(tool.name)?.untrusted === true, terminal: false });
  }
  for (const other of agentsReachableFrom(agent, 'handoffs')) {
    for (const rule of other.rules) if (rule.kind === 'terminal') tools.get(rule.tool)!.terminal = true;
  }
  return (name) => tools.get(name);
}
