import { LegateError } from '../errors/LegateError.js';

export type McpCallErrorCode =
  /** The server answered the call with a JSON-RPC error (an unknown tool, invalid parameters, an internal error). */
  | 'mcp_server_error'
  /** The server did not answer within the timeout; the call was cancelled. */
  | 'mcp_timeout'
  /** The connection closed before the server answered (the server exited or crashed mid-call). */
  | 'mcp_connection_closed'
  /** The server could not be started or reached. */
  | 'mcp_connect_failed';

/**
 * A call to an MCP server's tool that got no result. Thrown from the tool's `run`, it is that
 * call's failure (outcome `error`, `tool_failed`): the model is told the tool failed with
 * McpCallError, and the run goes on; the caller has this error, with the server's words, as the
 * call's `error.cause`.
 */
export class McpCallError extends LegateError {
  readonly code: McpCallErrorCode;
  /** The tool called (`tools/list` when listing the tools failed). */
  readonly tool: string;
  /** The JSON-RPC error code, when the server sent one. */
  readonly rpcCode: number | undefined;

  constructor(
    code: McpCallErrorCode,
    tool: string,
    message: string,
    options: { cause?: unknown; rpcCode?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.tool = tool;
    this.rpcCode = options.rpcCode;
  }
}
