import { optionalPeerImport } from '../files/optionalPeerImport.js';

const SDK = {
  name: '@modelcontextprotocol/sdk',
  neededBy: 'legate/mcp',
  install: 'npm install @modelcontextprotocol/sdk@^1.32.0',
};

/** The SDK's client modules mcpTools uses. */
export type McpSdk = Awaited<ReturnType<typeof importClientSdk>>;
/** The SDK's server modules serveMcp uses. */
export type McpServerSdk = Awaited<ReturnType<typeof importServerSdk>>;

/**
 * The MCP SDK's client modules, imported on first use and kept, so `import 'legate/mcp'` works
 * without the SDK installed. A failed import is not kept, so installing the SDK later works.
 */
export const loadMcpSdk = optionalPeerImport(importClientSdk, SDK);
/** The MCP SDK's server modules, loaded as loadMcpSdk loads the client's. */
export const loadMcpServerSdk = optionalPeerImport(importServerSdk, SDK);

async function importClientSdk() {
  const [client, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { client, stdio, http, types };
}

async function importServerSdk() {
  const [server, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { server, stdio, http, types };
}
