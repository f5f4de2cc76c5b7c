import { loadServeModule } from '../../src/mcp/index.js';
import type { AnyTool, Rule } from '../../src/index.js';

/**
 * The tools `legate mcp serve` serves: the module's, narrowed to `--tools a,b` when given (a name
 * the module has no tool for is a one-line problem naming the tools it has), with its contracts.
 */
export async function loadServeMcpTools(
  file: string,
  cwd: string,
  only: string | undefined,
): Promise<{ tools: AnyTool[]; contracts?: readonly Rule[] } | string> {
  const module = await loadServeModule(file, cwd);
  const all = Array.isArray(module.tools) ? [...module.tools] : Object.values(module.tools);
  const contracts = module.contracts === undefined ? {} : { contracts: module.contracts };
  if (only === undefined) return { tools: all as AnyTool[], ...contracts };
  const names = only
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const byName = new Map(all.map((tool) => [(tool as AnyTool).name, tool as AnyTool]));
  const missing = names.filter((name) => !byName.has(name));
  if (names.length === 0 || missing.length > 0)
    return (
      `--tools names ${names.length === 0 ? 'no tool' : missing.map((n) => `'${n}'`).join(', ')}; ${file} exports ` +
      `${[...byName.keys()].map((n) => `'${n}'`).join(', ') || 'no tools'}.`
    );
  return { tools: names.map((name) => byName.get(name)!), ...contracts };
}
