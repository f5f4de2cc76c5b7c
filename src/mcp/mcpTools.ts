import { defineTool } from '../tools/defineTool.js';
import type { JsonObjectSchema } from '../tools/schema/jsonSchema.js';
import type { Tool } from '../tools/tool.js';
import { McpConnection, type McpConnectionOptions } from './mcpConnection.js';
import { annotationsOf, flagsOf, type McpToolFlags } from './mcpFlags.js';
import { readPins, writePins } from './mcpPins.js';
import { outputOf } from './mcpResult.js';
import type { McpServerOptions } from './mcpServer.js';
import type { McpToolDefinition } from './mcpToolDefinition.js';

export interface McpToolsOptions extends McpConnectionOptions {
  /** The tools to offer: a list of names, or a test of each listed tool. Default: all. */
  filter?: readonly string[] | ((tool: McpToolDefinition) => boolean);
  /**
   * A pin file. Absent: the server is listed and the file written. Present: the tools are built from
   * it without connecting, and the server's tools are compared with it when legate first connects.
   */
  pin?: string;
  /** Write the pin file again from the server's list. Default: true when `LEGATE_MCP_REPIN=1`. */
  repin?: boolean;
  /** Safety flags by tool name, over what the tool's annotations imply. */
  flags?: Readonly<Record<string, McpToolFlags>>;
  /** Characters of each result shown to the model (see defineTool); default 0, no cap. */
  maxResultLength?: number;
}

/** Where the server is, and how its tools are offered. */
export type McpToolsConfig = McpServerOptions & McpToolsOptions;

/** An MCP server's tools as legate tools, and the connection behind them. */
export interface McpTools {
  /** One legate tool per offered MCP tool, in the server's (or the pins') order. */
  readonly tools: Tool<Record<string, unknown>>[];
  /** The definitions they were built from, as the pins hold them. */
  readonly definitions: readonly McpToolDefinition[];
  /** Closes the connection legate opened (ending a stdio server); a client you gave stays open. */
  close(): Promise<void>;
}

/**
 * Legate tools for an MCP server's tools. Each call is bound against the tool's input schema
 * first (a refused argument never reaches the server), then sent as `tools/call` with the run's
 * AbortSignal. See docs/mcp.md for the flags each tool gets and what a pin file guarantees.
 */
export async function mcpTools(config: McpToolsConfig): Promise<McpTools> {
  const connection = new McpConnection(config, config);
  const repin = config.repin ?? process.env.LEGATE_MCP_REPIN === '1';
  const pinned = config.pin === undefined || repin ? undefined : readPins(config.pin);
  const offered = (definition: McpToolDefinition): boolean =>
    config.filter === undefined ||
    (typeof config.filter === 'function' ? config.filter(definition) : config.filter.includes(definition.name));
  let definitions: McpToolDefinition[];
  try {
    if (pinned !== undefined) definitions = pinned.filter(offered);
    else {
      definitions = (await connection.list()).filter(offered);
      if (config.pin !== undefined) writePins(config.pin, definitions);
    }
    connection.expect(definitions, config.pin, pinned === undefined);
    const tools = definitions.map((definition) => toolOf(definition, connection, config));
    return { tools, definitions, close: () => connection.close() };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

function toolOf(definition: McpToolDefinition, connection: McpConnection, config: McpToolsOptions) {
  const flags = flagsOf(definition, config.flags?.[definition.name]);
  return defineTool({
    name: definition.name,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    input: definition.inputSchema as JsonObjectSchema,
    ...flags,
    annotations: annotationsOf(definition),
    remote: true,
    renameUnsafeProperties: true,
    ...(config.maxResultLength === undefined ? {} : { maxResultLength: config.maxResultLength }),
    run: async (args, context) =>
      outputOf(await connection.call(definition.name, args as Record<string, unknown>, context.signal)),
  }) as Tool<Record<string, unknown>>;
}
