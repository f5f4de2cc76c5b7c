import { resolve } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { importModule } from '../files/importModule.js';
import type { Rule } from '../guard/rules.js';
import type { AnyTool } from '../tools/tool.js';

/** What a module offers to serve over MCP. */
export interface ServeModule {
  /** Its `tools` export, else its default export: a list or a record of tools (checked by serveMcp). */
  tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>>;
  /** Its `contracts` export (rules.limit(...), ...), when it has one. */
  contracts?: readonly Rule[];
}

/**
 * Imports a module to serve (`legate mcp serve <module>`), TypeScript through tsx as configs are:
 * its `tools` export, else its default export, is what is served; a `contracts` export, the
 * contracts. Throws ModuleImportError when it cannot be imported, UsageError (`invalid_serve_option`)
 * when it exports no tools.
 */
export async function loadServeModule(file: string, cwd = process.cwd()): Promise<ServeModule> {
  const module = await importModule(resolve(cwd, file));
  const tools = module.tools ?? unwrapCommonJs(module.default);
  if (tools === undefined)
    throw new UsageError(
      'invalid_serve_option',
      `${file} exports no tools to serve: export them as 'tools' (export const tools = [lookup, forecast]), or as ` +
        'its default export, a list or a record of tools made with defineTool.',
    );
  const served: ServeModule = { tools: tools as ServeModule['tools'] };
  if (module.contracts !== undefined) served.contracts = module.contracts as Rule[];
  return served;
}

/** A module compiled as CommonJS arrives as `{ default: value }`. */
function unwrapCommonJs(exported: unknown): unknown {
  const inner = (exported as { default?: unknown } | undefined)?.default;
  return inner ?? exported;
}
