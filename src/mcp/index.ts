// legate/mcp: tools from MCP servers (pinned, replayable) and legate tools served over MCP.
// Needs the optional peer @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk);
// without it the functions here throw MissingPeerDependencyError (code missing_peer_dependency).
export { mcpTools, type McpTools, type McpToolsConfig, type McpToolsOptions } from './mcpTools.js';
export type { McpClient, McpServerOptions, McpStdioServer, McpHttpServer, McpClientServer } from './mcpServer.js';
export type { McpToolDefinition, McpHints } from './mcpToolDefinition.js';
export { mcpToolPosture, type McpToolFlags, type McpToolPosture } from './mcpFlags.js';
export type { PostureCause } from '../tools/hintedPosture.js';
export type { McpLogEntry } from './mcpConnection.js';
export { McpPinError, type McpPinErrorCode, type McpToolChange } from './McpPinError.js';
export { McpCallError, type McpCallErrorCode } from './McpCallError.js';
export { serveMcp, type McpServing } from './serveMcp.js';
export type { ServeMcpOptions } from './serveMcpOptions.js';
export type { McpRefusal } from './serveMcpCall.js';
export { loadServeModule, type LoadServeModuleOptions, type ServeModule } from './serveMcpModule.js';
