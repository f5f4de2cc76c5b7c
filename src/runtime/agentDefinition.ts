import { isAuthorized } from '../guard/authorizer.js';
import type { ToolDeclarationWarning } from '../tools/declarationError.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { AnyTool } from '../tools/tool.js';
import type { AgentNode, HandoffTarget } from './agentNode.js';
import type { AgentOptions } from './agentOptions.js';
import type { RequestOptions } from './requestOptions.js';

/**
 * An agent as the runtime keeps it once its options are checked: everything its runs read. One is kept for each
 * agent constructed (`defineAgent`), so that a run reads the agent a handoff reaches, and a resume the agent in
 * charge of the suspended run, through the graph's nodes.
 */
export interface AgentDefinition {
  /** The agent itself, as the agent graph sees it. */
  readonly agent: AgentNode;
  /** Its options, as given and checked. */
  readonly options: AgentOptions;
  /** Its tools by name, its handoff tools included. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The tools the API runs, by name, offered after the defined ones. */
  readonly serverTools: ReadonlyMap<string, ServerTool>;
  /** The agents it can hand the conversation to, each with its transfer tool's name. */
  readonly handoffs: readonly HandoffTarget[];
  /** Tool choice, stop sequences, thinking, caching, metadata, container, as the requests carry them. */
  readonly request: RequestOptions;
  /** The clock its runs' tools read where the call gives none: its `clock`, else the system clock. */
  readonly clock: () => Date;
  /** Non-fatal findings about its tools (e.g. a missing description). */
  readonly warnings: readonly ToolDeclarationWarning[];
}

const definitions = new WeakMap<object, AgentDefinition>();

/** Keeps an agent's definition, to be read through the agent (`definitionOf`). */
export function registerAgent(definition: AgentDefinition): void {
  definitions.set(definition.agent, definition);
}

/** The definition of an agent constructed already; undefined for anything else, however shaped. */
export function definitionOf(agent: unknown): AgentDefinition | undefined {
  return typeof agent === 'object' && agent !== null ? definitions.get(agent) : undefined;
}

/**
 * The tools the model may see: those without a policy, and those whose policy the agent's authorizer grants. Asked
 * afresh for every run, so a change of principal takes effect.
 */
export function visibleToolsOf(definition: AgentDefinition): ReadonlyMap<string, AnyTool> {
  const { authorizer } = definition.options;
  return new Map([...definition.tools].filter(([, tool]) => isAuthorized(tool.policy, authorizer)));
}
