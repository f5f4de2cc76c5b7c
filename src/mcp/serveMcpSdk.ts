import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';

const SDK = {
  name: '@modelcontextprotocol/sdk',
  neededBy: 'legate/mcp',
  install: 'npm install @modelcontextprotocol/sdk@^1.32.2',
};

/** The SDK's server modules serveMcp uses. */
export type McpServerSdk = Awaited<ReturnType<typeof importServerSdk>>;

let sdk: Promise<McpServerSdk> | undefined;

/**
 * The MCP SDK's server modules, imported on first use and kept, so `import 'legate/mcp'` works
 * without the SDK installed (serveMcp then throws MissingPeerDependencyError). A failed import is
 * not kept, so installing the SDK later works.
 */
export function loadMcpServerSdk(): Promise<McpServerSdk> {
  sdk ??= importServerSdk().catch((error: unknown) => {
    sdk = undefined;
    throw error;
  });
  return sdk;
}

async function importServerSdk() {
  try {
    const [server, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return { server, stdio, http, types };
  } catch (error) {
    throw MissingPeerDependencyError.orCause(error, SDK);
  }
}
