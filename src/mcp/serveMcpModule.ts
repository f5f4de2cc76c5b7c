import { resolve } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { importModule } from '../files/importModule.js';
import { toolsNamedBy, type Rule } from '../guard/rules.js';
import { moduleTools } from '../tools/moduleTools.js';
import type { AnyTool } from '../tools/tool.js';

/** What a module offers to serve over MCP. */
export interface ServeModule {
  /** Its tools, as {@link moduleTools} reads them (as `legate fuzz` does), as a list; checked by serveMcp. */
  tools: AnyTool[];
  /** Its `contracts` export (rules.limit(...), ...), when it has one. */
  contracts?: readonly Rule[];
}

export interface LoadServeModuleOptions {
  /** Where a relative path starts. Default: the process's working directory. */
  cwd?: string;
  /** Serve only these tools (`legate mcp serve --tools a,b`); contracts on the others are dropped. */
  only?: readonly string[];
}

/**
 * Imports a module to serve (`legate mcp serve <module>`), TypeScript through tsx as configs are:
 * its `tools` export, else its default export, else every tool it exports (the tools `legate fuzz`
 * finds in it: {@link moduleTools}) is what is served; a `contracts` export, the contracts. With
 * `only`, just those tools, and the contracts that name one of them (serveMcp refuses one that also
 * names a tool left out: a requirement is never lost by serving fewer).
 * Throws ModuleImportError when it cannot be imported, UsageError (`invalid_serve_option`) when it
 * exports no tools or `only` names a tool it does not export.
 */
export async function loadServeModule(file: string, options: LoadServeModuleOptions = {}): Promise<ServeModule> {
  const module = await importModule(resolve(options.cwd ?? process.cwd(), file));
  const tools = moduleTools(module) as AnyTool[] | undefined;
  if (tools === undefined)
    throw new UsageError(
      'invalid_serve_option',
      `${file} exports no tools to serve: export them as 'tools' (export const tools = [lookup, forecast]), as ` +
        'its default export (a list or a record of tools made with defineTool), or each tool as an export of its own.',
    );
  const contracts = module.contracts as Rule[] | undefined;
  if (options.only === undefined) return contracts === undefined ? { tools } : { tools, contracts };
  const byName = new Map(tools.map((tool) => [tool?.name, tool]));
  const missing = options.only.filter((name) => !byName.has(name));
  if (options.only.length === 0 || missing.length > 0) {
    const exports = [...byName.keys()].map((name) => `'${name}'`).join(', ');
    const named = missing.map((name) => `'${name}'`).join(', ');
    const problem = missing.length === 0 ? 'no tool was named to serve' : `${named} is not a tool of ${file}`;
    throw new UsageError('invalid_serve_option', `${problem}; it exports ${exports || 'no tools'}.`);
  }
  const only = options.only;
  const served: ServeModule = { tools: only.map((name) => byName.get(name)!) };
  if (contracts !== undefined)
    served.contracts = contracts.filter((rule) => toolsNamedBy(rule).some((name) => only.includes(name)));
  return served;
}
