import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { unknownToolMessage } from '../tools/unknownTool.js';
import { answerCall } from './serveMcpCall.js';
import { SessionContracts } from './serveMcpContracts.js';
import { listedTool } from './serveMcpListing.js';
import type { ServeMcpSettings } from './serveMcpOptions.js';
import type { McpServerSdk } from './loadMcpSdk.js';

/**
 * One MCP session: an SDK server (the low-level `Server`, so legate's own schemas and binder are
 * used) answering `tools/list` and `tools/call` for the served tools, with a guard state of its
 * own for the contracts. A name no served tool has is the protocol's error (invalid params).
 */
export function createMcpSession(settings: ServeMcpSettings, sdk: McpServerSdk): Server {
  const { Server } = sdk.server;
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } = sdk.types;
  const server = new Server({ name: settings.name, version: settings.version }, { capabilities: { tools: {} } });
  const names = [...settings.tools.keys()];
  const listed = [...settings.tools.values()].map(listedTool);
  const contracts = settings.contracts.length === 0 ? undefined : new SessionContracts(settings.contracts, names);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = settings.tools.get(request.params.name);
    if (tool === undefined)
      throw protocolError(ErrorCode.InvalidParams, unknownToolMessage(request.params.name, names));
    const scope = { id: String(extra.requestId), server: settings.name, signal: extra.signal, contracts };
    return answerCall(tool, request.params.arguments, scope);
  });
  return server;
}

/**
 * A JSON-RPC error for the SDK to send: its `code` and `message` as they go on the wire. Not the SDK's
 * McpError, whose message already holds "MCP error <code>: ", which the client's McpError adds again.
 */
function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
