import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';

const SDK = {
  name: '@modelcontextprotocol/sdk',
  neededBy: 'legate/mcp',
  install: 'npm install @modelcontextprotocol/sdk@^1.32.0',
};

/** The SDK's client modules legate/mcp uses. */
export type McpSdk = Awaited<ReturnType<typeof importSdk>>;

let sdk: Promise<McpSdk> | undefined;

/**
 * The MCP SDK's client modules, imported on first use and kept, so `import 'legate/mcp'` works
 * without the SDK installed. A failed import is not kept, so installing the SDK later works.
 */
export function loadMcpSdk(): Promise<McpSdk> {
  sdk ??= importSdk().catch((error: unknown) => {
    sdk = undefined;
    throw error;
  });
  return sdk;
}

async function importSdk() {
  try {
    const [client, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return { client, stdio, http, types };
  } catch (error) {
    throw MissingPeerDependencyError.orCause(error, SDK);
  }
}
