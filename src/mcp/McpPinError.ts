import { LegateError } from '../errors/LegateError.js';

/** What changed in one pinned tool: where in its definition, what the pin holds and what the server sent. */
export interface McpToolChange {
  tool: string;
  /** A JSON path in the tool's definition (`inputSchema.properties.city.type`); empty when the tool is gone. */
  path: string;
  /** What the pin holds there. */
  expected: unknown;
  /** What the server publishes there (undefined when the tool is gone). */
  actual: unknown;
}

export type McpPinErrorCode =
  /** A pinned tool's definition (description, title, input schema, annotations) changed on the server, or is gone. */
  | 'mcp_tool_changed'
  /** The pin file cannot be read as a pin file. */
  | 'invalid_mcp_pins';

/**
 * A server's tools are not the ones pinned. Thrown when legate connects (lazily, on the first
 * call), it stops the run (`abortsRun`): a tool that changed after it was reviewed is not called,
 * and the model cannot route around it. Re-pin (`repin: true` or `LEGATE_MCP_REPIN=1`) to accept it.
 */
export class McpPinError extends LegateError {
  readonly code: McpPinErrorCode;
  override readonly abortsRun = true;
  /** The pin file; undefined when the tools were compared with the list read when mcpTools started. */
  readonly file: string | undefined;
  /** Each changed tool's first difference, in pin order. */
  readonly changes: readonly McpToolChange[];

  constructor(
    code: McpPinErrorCode,
    file: string | undefined,
    message: string,
    changes: readonly McpToolChange[] = [],
  ) {
    super(message);
    this.code = code;
    this.file = file;
    this.changes = changes;
  }
}
