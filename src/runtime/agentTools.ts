import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import type { ServerToolDefinition } from '../messages/types.js';
import { ToolDeclarationError } from '../tools/declarationError.js';
import { foreignToolProblem, isDefinedTool } from '../tools/toolBrand.js';
import { isServerTool, serverTool, serverToolProblem, type ServerTool } from '../tools/serverTool.js';
import type { AnyTool } from '../tools/tool.js';

/** An agent's `tools` option, checked: defined tools and server tools, each name once. */

type Fail = (option: string, message: string) => never;

/**
 * An agent's tools, sorted: defined tools (a defined tool's index is kept, for the errors), and
 * server tools, a definition alone taken as `serverTool(definition)`.
 */
export function splitTools(tools: unknown, fail: Fail): { defined: unknown[]; server: ServerTool[] } {
  if (!Array.isArray(tools))
    return fail('tools', `'tools' must be a list of tools made with defineTool, but it was ${describeValue(tools)}.`);
  const defined: unknown[] = [];
  const server: ServerTool[] = [];
  tools.forEach((tool: unknown, i) => {
    if (isServerTool(tool)) server.push(tool);
    else if (isDefinedTool(tool) || !isPlainObject(tool) || !('type' in tool)) defined.push(tool);
    else {
      const problem = serverToolProblem(tool);
      if (problem !== undefined)
        fail(problem.path === '' ? `tools[${i}]` : `tools[${i}].${problem.path}`, `tools[${i}]: ${problem.message}`);
      server.push(serverTool(tool as ServerToolDefinition));
    }
  });
  return { defined, server };
}

/** Server tools by name: a name is one tool, whether legate or the API runs it. */
export function serverToolsByName(
  agent: string,
  server: ServerTool[],
  defined: Map<string, AnyTool>,
): Map<string, ServerTool> {
  const byName = new Map<string, ServerTool>();
  for (const tool of server) {
    if (byName.has(tool.name) || defined.has(tool.name))
      throw new ToolDeclarationError(
        'duplicate_tool_name',
        tool.name,
        'tools',
        `Agent '${agent}' has two tools named '${tool.name}'` +
          `${defined.has(tool.name) ? ' (one defined, one a server tool)' : ''}; ` +
          'the model could not tell them apart. Rename one.',
      );
    byName.set(tool.name, tool);
  }
  return byName;
}

/** A compensator must be a tool of the same agent, or compensation could never run it. */
export function checkCompensators(tools: Map<string, AnyTool>, fail: Fail): void {
  for (const tool of tools.values()) {
    if (tool.compensatedBy !== undefined && !tools.has(tool.compensatedBy)) {
      fail(
        `tools.${tool.name}.compensatedBy`,
        `tool '${tool.name}' is compensated by '${tool.compensatedBy}', which is not one of this agent's tools ` +
          `(${[...tools.keys()].map((n) => `'${n}'`).join(', ')}). Add it to the agent's tools.`,
      );
    }
  }
}

export function toolsByName(agent: string, tools: unknown, fail: Fail): Map<string, AnyTool> {
  if (!Array.isArray(tools))
    return fail('tools', `'tools' must be a list of tools made with defineTool, but it was ${describeValue(tools)}.`);
  const byName = new Map<string, AnyTool>();
  tools.forEach((tool: unknown, i) => {
    if (!isDefinedTool(tool))
      fail(
        `tools[${i}]`,
        foreignToolProblem(tool, `tools[${i}]`) ??
          `tools[${i}] is not a tool made with defineTool (it was ${describeValue(tool)}); wrap its declaration ` +
            'in defineTool(...).',
      );
    const defined = tool as AnyTool;
    if (byName.has(defined.name)) {
      const first = tools.findIndex((t: AnyTool) => t.name === defined.name);
      throw new ToolDeclarationError(
        'duplicate_tool_name',
        defined.name,
        `tools[${i}]`,
        `Agent '${agent}' has two tools named '${defined.name}' (tools[${first}] ` +
          `and tools[${i}]); the model could not tell them apart. Rename one.`,
      );
    }
    byName.set(defined.name, defined);
  });
  return byName;
}
