import { LegateError } from '../errors/LegateError.js';
import { McpCallError } from './McpCallError.js';
import { checkPins } from './mcpPins.js';
import { connectServer, listAll, serverLabel, type McpLink, type McpServerOptions } from './mcpServer.js';
import { definitionOf, type McpToolDefinition } from './mcpToolDefinition.js';
import { loadMcpSdk, type McpSdk } from './loadMcpSdk.js';

/** A log message an MCP server sent (`notifications/message`), or legate's note about the server. */
export interface McpLogEntry {
  level: string;
  logger?: string;
  data: unknown;
}

export interface McpConnectionOptions {
  /** Milliseconds a call may take without a word from the server (progress resets it). Default 60000. */
  timeoutMs?: number;
  /** Receives the server's log messages and legate's notes (a changed tool list). Default: dropped. */
  onLog?: (entry: McpLogEntry) => void;
}

/**
 * One server, connected on first need and compared, on every connection and after every
 * `tools/list_changed`, with the definitions the tools were built from (the pins). A server that
 * closes is connected again on the next call.
 */
export class McpConnection {
  readonly #server: McpServerOptions;
  readonly #options: McpConnectionOptions;
  #link: Promise<McpLink> | undefined;
  #sdk: McpSdk | undefined;
  /** What the tools were built from, and where it came from (a pin file, or undefined for the first listing). */
  #expected: { definitions: readonly McpToolDefinition[]; file: string | undefined } | undefined;
  #stale = false;
  /** A failed comparison stays failed: every later call stops the run the same way. */
  #refused: LegateError | undefined;

  constructor(server: McpServerOptions, options: McpConnectionOptions) {
    this.#server = server;
    this.#options = options;
  }

  /** Connects (if not connected) and lists the server's tools as it publishes them now. */
  async list(): Promise<McpToolDefinition[]> {
    const link = await this.#connect();
    try {
      return (await listAll(link.client)).map((tool) => definitionOf(tool as Record<string, unknown>));
    } catch (error) {
      throw this.#callError('tools/list', error);
    }
  }

  /** The definitions later connections are compared with. */
  expect(definitions: readonly McpToolDefinition[], file: string | undefined, verified: boolean): void {
    this.#expected = { definitions, file };
    this.#stale = !verified;
  }

  /** Calls a tool; an answer with no result is an {@link McpCallError}. */
  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    try {
      const link = await this.#verified(name);
      return await link.client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: this.#options.timeoutMs ?? 60_000,
        // Asking for progress lets a long call that reports it outlive the timeout; the reports are not kept.
        onprogress: () => undefined,
        resetTimeoutOnProgress: true,
      });
    } catch (error) {
      if (signal.aborted || error instanceof LegateError) throw error;
      throw this.#callError(name, error);
    }
  }

  async close(): Promise<void> {
    const link = this.#link;
    this.#link = undefined;
    if (link !== undefined) await (await link.catch(() => undefined))?.close();
  }

  async #verified(tool: string): Promise<McpLink> {
    if (this.#refused !== undefined) throw this.#refused;
    const link = await this.#connect(tool);
    if (this.#stale && this.#expected !== undefined) {
      const live = await this.list();
      try {
        checkPins(this.#expected.file, this.#expected.definitions, live);
      } catch (error) {
        this.#refused = error as LegateError;
        throw error;
      }
      this.#stale = false;
    }
    return link;
  }

  #connect(tool?: string): Promise<McpLink> {
    this.#link ??= this.#open().catch((error: unknown) => {
      this.#link = undefined;
      throw error instanceof LegateError
        ? error
        : new McpCallError(
            'mcp_connect_failed',
            tool ?? '',
            `Could not connect to ${serverLabel(this.#server)}: ${(error as Error).message ?? String(error)}`,
            { cause: error },
          );
    });
    return this.#link;
  }

  async #open(): Promise<McpLink> {
    this.#sdk ??= await loadMcpSdk();
    const sdk = this.#sdk;
    const link = await connectServer(sdk, this.#server);
    // A new connection is compared with what the tools were built from before its first call.
    this.#stale = true;
    const client = link.owned;
    if (client !== undefined) {
      client.onclose = () => {
        this.#link = undefined;
      };
      client.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, () => {
        this.#stale = true;
        this.#options.onLog?.({
          level: 'notice',
          logger: 'legate',
          data:
            `${serverLabel(this.#server)} says its tool list changed; ` +
            'it is compared with the pins before the next call.',
        });
      });
      client.setNotificationHandler(sdk.types.LoggingMessageNotificationSchema, (notification) => {
        const { level, logger, data } = notification.params;
        this.#options.onLog?.(logger === undefined ? { level, data } : { level, logger, data });
      });
    }
    return link;
  }

  #callError(tool: string, error: unknown): LegateError {
    if (error instanceof LegateError) return error;
    const types = this.#sdk?.types;
    const message = error instanceof Error ? error.message : String(error);
    if (types !== undefined && error instanceof types.McpError) {
      if (error.code === types.ErrorCode.ConnectionClosed)
        return new McpCallError(
          'mcp_connection_closed',
          tool,
          `${serverLabel(this.#server)} closed the connection before answering the call of '${tool}' ` +
            `(it exited or crashed); whether the call took effect is unknown. ${message}`,
          { cause: error, rpcCode: error.code },
        );
      if (error.code === types.ErrorCode.RequestTimeout)
        return new McpCallError(
          'mcp_timeout',
          tool,
          `${serverLabel(this.#server)} did not answer the call of '${tool}' within ` +
            `${this.#options.timeoutMs ?? 60_000} ms; the call was cancelled. ${message}`,
          { cause: error, rpcCode: error.code },
        );
      return new McpCallError(
        'mcp_server_error',
        tool,
        `${serverLabel(this.#server)} answered the call of '${tool}' with an error: ${message}`,
        { cause: error, rpcCode: error.code },
      );
    }
    return new McpCallError(
      this.#link === undefined ? 'mcp_connection_closed' : 'mcp_server_error',
      tool,
      `The call of '${tool}' on ${serverLabel(this.#server)} failed: ${message}`,
      { cause: error },
    );
  }
}
