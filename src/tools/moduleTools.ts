import { isPlainObject } from '../json/jsonValue.js';
import type { AnyTool } from './tool.js';
import { isDefinedTool } from './toolBrand.js';

/**
 * The tools a module offers, as `legate mcp serve` and `legate fuzz` read them: its `tools` export (a list, or a
 * record of tools), else its default export when that is a list, a tool or a record holding a tool (a config's
 * default export holds none), else every export that is a tool. Undefined when it offers none. A list is given as
 * it is, so that what is not a tool in it is refused by its user, naming the entry (serveMcp's `tools[1]`).
 */
export function moduleTools(module: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const listed = module.tools;
  if (listed !== undefined)
    return Array.isArray(listed) ? listed : isPlainObject(listed) ? Object.values(listed) : undefined;
  const exported = unwrapCommonJs(module.default);
  if (Array.isArray(exported)) return exported;
  if (looksLikeTool(exported)) return [exported];
  if (isPlainObject(exported) && Object.values(exported).some(looksLikeTool)) return Object.values(exported);
  const tools = Object.values(module).filter(looksLikeTool);
  return tools.length === 0 ? undefined : tools;
}

/**
 * A tool made with defineTool (by any copy of legate: {@link isDefinedTool}), or an object shaped like one (a
 * test's wrapper of a tool's binder, which legate fuzz fuzzes and serveMcp refuses by name).
 */
export function looksLikeTool(value: unknown): value is AnyTool {
  if (isDefinedTool(value)) return true;
  const tool = value as Partial<AnyTool> | null;
  return (
    typeof tool === 'object' &&
    tool !== null &&
    typeof tool.name === 'string' &&
    typeof tool.bind === 'function' &&
    typeof tool.run === 'function' &&
    typeof tool.inputSchema === 'object'
  );
}

/** A module compiled as CommonJS arrives as `{ default: value }`. */
function unwrapCommonJs(exported: unknown): unknown {
  const inner = (exported as { default?: unknown } | undefined)?.default;
  return inner ?? exported;
}
