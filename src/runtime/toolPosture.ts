import type { TaintPolicy } from '../tools/taintPolicy.js';
import { effectiveTaintPolicy } from '../tools/taintPolicy.js';
import type { AnyTool } from '../tools/tool.js';

/**
 * A tool as a trajectory's header describes it for one agent: the tool itself, its `onTaint` the
 * policy it has under that agent (its own, else the agent's, else `block`). A view over the tool,
 * not a copy: everything else is the tool's.
 */
export function toolUnderPolicy(tool: AnyTool, agentOnTaint: TaintPolicy | undefined): AnyTool {
  // Only a privileged tool has a policy, and one it declares is its own: most tools are returned as they are.
  if (!tool.privileged || tool.onTaint !== undefined || agentOnTaint === undefined) return tool;
  return Object.create(tool, {
    onTaint: { value: effectiveTaintPolicy(tool.onTaint, agentOnTaint), enumerable: true },
  }) as AnyTool;
}
