import { legateVersion } from '../version.js';
import type { Tool } from './tool.js';

/**
 * The mark every tool defineTool makes carries, under a symbol every copy of legate in a process shares (two
 * installed versions, or src/ and dist/ of one repository), so a tool made by one copy is known to another.
 * An own, non-enumerable property: a spread or a prototype copy of a tool is not a tool.
 */
const TOOL_BRAND = Symbol.for('legate.tool');

/**
 * The shape of the tools this copy makes and runs (the Tool interface). A copy whose tools have another format
 * makes tools this one would misread: raise it when that interface changes so.
 */
const TOOL_FORMAT = 1;

/** What a tool says of the copy of legate that made it. */
interface ToolBrand {
  format: number;
  legate: string;
}

/** Marks a tool made by defineTool. */
export function brandTool(tool: object): void {
  const brand: ToolBrand = Object.freeze({ format: TOOL_FORMAT, legate: legateVersion() });
  Object.defineProperty(tool, TOOL_BRAND, { value: brand });
}

function brandOf(value: unknown): Partial<ToolBrand> | undefined {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, TOOL_BRAND)) return undefined;
  const brand = (value as Record<symbol, unknown>)[TOOL_BRAND];
  return typeof brand === 'object' && brand !== null ? (brand as Partial<ToolBrand>) : {};
}

/**
 * True for a tool made by defineTool, whose declaration was checked and binder compiled: by this copy of legate,
 * or by another whose tools have the same format.
 */
export function isDefinedTool(value: unknown): value is Tool<unknown> {
  return brandOf(value)?.format === TOOL_FORMAT;
}

/**
 * What to say of a value that is a tool made by a copy of legate whose tools this one cannot run (`where` names
 * it: `tools[0]`), or undefined when it is not one: anything else is said by its caller, as what it was.
 */
export function foreignToolProblem(value: unknown, where: string): string | undefined {
  const brand = brandOf(value);
  if (brand === undefined || brand.format === TOOL_FORMAT) return undefined;
  const name = (value as { name?: unknown }).name;
  return (
    `${where}${typeof name === 'string' ? ` ('${name}')` : ''} is a tool made with defineTool by another copy of ` +
    `legate (${String(brand.legate ?? 'an unknown version')}, tool format ${String(brand.format)}), which this ` +
    `legate (${legateVersion()}, tool format ${TOOL_FORMAT}) cannot run. Make every tool with the legate that runs ` +
    'it: install one version (npm ls legate shows the copies installed, and which package brings each).'
  );
}
