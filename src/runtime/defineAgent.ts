import type { ToolDeclarationWarning } from '../tools/declarationError.js';
import { registerAgent, type AgentDefinition } from './agentDefinition.js';
import type { AgentNode } from './agentNode.js';
import type { AgentOptions } from './agentOptions.js';
import { checkAgentOptions } from './checkAgentOptions.js';

/**
 * Checks an agent's options and keeps what its runs read, for the agent given (the `Agent` being constructed); the
 * findings about its tools are emitted as process warnings, each once.
 */
export function defineAgent(agent: AgentNode, options: AgentOptions): AgentDefinition {
  const { tools, serverTools, handoffTools, request } = checkAgentOptions(options);
  const clock = options.clock;
  const definition: AgentDefinition = {
    agent,
    options,
    tools,
    serverTools,
    handoffs: handoffTools.map((h) => h.target),
    request,
    clock: clock === undefined ? () => new Date() : () => clock(),
    warnings: [...tools.values()].flatMap((tool) => tool.warnings),
  };
  for (const warning of definition.warnings) warnOnce(warning);
  registerAgent(definition);
  return definition;
}

const warned = new WeakSet<ToolDeclarationWarning>();

function warnOnce(warning: ToolDeclarationWarning): void {
  if (warned.has(warning)) return;
  warned.add(warning);
  process.emitWarning(warning.message, { type: 'LegateWarning', code: `LEGATE_${warning.code.toUpperCase()}` });
}
