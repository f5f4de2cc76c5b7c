import { describeValue } from '../json/describeValue.js';
import { defineTool } from '../tools/defineTool.js';
import type { AnyTool } from '../tools/tool.js';
import { definitionOf } from './agentDefinition.js';
import { handoffChain } from './agentGraph.js';
import type { HandoffTarget } from './agentNode.js';
import { handoffToolName, transferredMessage } from './handoff.js';

/**
 * Each handoff target becomes a transfer tool. Targets must already exist, and no chain of
 * transfers may lead back to this agent: handoff graphs are acyclic.
 */
export function handoffTargetsOf(
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
    // A constructed agent, not only something shaped like one: its run settings are read when it takes charge.
    const target = definitionOf(entry.agent)?.agent;
    if (target === undefined)
      return fail(
        `handoffs[${i}].agent`,
        `handoff '${String(entry.name)}' needs the agent to transfer to, constructed already, but it was ` +
          `${describeValue(entry.agent)}.`,
      );
    const path = handoffChain(target, (other) => other.name === agent)?.map((other) => other.name);
    if (path !== undefined)
      fail(
        `handoffs[${i}]`,
        `handing off to '${target.name}' makes a cycle (${[agent, ...path].join(' → ')}). Handoff ` +
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
    return { target: { name, agent: target, description, toolName }, tool };
  });
}
