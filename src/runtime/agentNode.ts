import type { Rule } from '../guard/rules.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { TaintPolicy } from '../tools/taintPolicy.js';
import type { AnyTool } from '../tools/tool.js';

/**
 * An agent as the agent graph sees it: what it declares and which tools its model may see, read by whoever walks the
 * graph (agentGraph.ts) and by the agents that hand off to it or run it as a tool. An `Agent` is one.
 */
export interface AgentNode {
  readonly name: string;
  /** The system prompt it was given, if any. */
  readonly system: string | undefined;
  /** Its tools, hidden ones and its handoff tools included. */
  readonly tools: readonly AnyTool[];
  /** The tools the API runs, offered after the defined ones. */
  readonly serverTools: readonly ServerTool[];
  /** The agents it can hand the conversation to. */
  readonly handoffs: readonly HandoffTarget[];
  /** Its tool contracts, as declared. */
  readonly rules: readonly Rule[];
  /** Its policy for privileged tools in a tainted run, as declared (`onTaint`); a tool's own wins. */
  readonly onTaint: TaintPolicy | undefined;
  /** The tools its model may see, as its authorizer grants them now. */
  visibleTools(): ReadonlyMap<string, AnyTool>;
}

/** A handoff as the agent keeps it: the target and the tool that transfers to it. */
export interface HandoffTarget {
  name: string;
  agent: AgentNode;
  description: string;
  toolName: string;
}
