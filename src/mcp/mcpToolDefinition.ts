/** MCP's tool annotations: hints a server gives about a tool, which a client must not trust blindly. */
export interface McpHints {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as an MCP server lists it (`tools/list`), the parts legate uses and pins. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpHints;
}

const HINTS = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * The parts of a listed tool legate uses, in a fixed key order, with what the server left out
 * left out: the form pins hold and are compared in. Other fields a server sends (`outputSchema`,
 * `_meta`, `icons`) are not kept.
 */
export function definitionOf(listed: Record<string, unknown>): McpToolDefinition {
  const definition = { name: String(listed.name) } as McpToolDefinition;
  if (typeof listed.title === 'string') definition.title = listed.title;
  if (typeof listed.description === 'string') definition.description = listed.description;
  definition.inputSchema = (listed.inputSchema ?? {}) as Record<string, unknown>;
  const given = listed.annotations as Record<string, unknown> | undefined;
  if (typeof given === 'object' && given !== null) {
    const hints: Record<string, unknown> = {};
    for (const hint of HINTS) if (given[hint] !== undefined) hints[hint] = given[hint];
    if (Object.keys(hints).length > 0) definition.annotations = hints as McpHints;
  }
  return definition;
}
