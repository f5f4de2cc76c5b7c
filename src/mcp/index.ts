// legate/mcp: tools from MCP servers (pinned, replayable) and legate tools served over MCP.
// Needs the optional peer @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk);
// without it the functions here throw MissingPeerDependencyError (code missing_peer_dependency).

export { serveMcp, type McpServing } from './serveMcp.js';
export type { ServeMcpOptions } from './serveMcpOptions.js';
export type { McpRefusal } from './serveMcpCall.js';
export { loadServeModule, type LoadServeModuleOptions, type ServeModule } from './serveMcpModule.js';
