import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { mcpTools, type McpStdioServer, type McpTools, type McpToolsOptions } from '../../src/mcp/index.js';
import { useTempDir } from '../support/tempDir.js';

const STDIO_FIXTURE = fileURLToPath(new URL('./fixtures/client-stdio.mjs', import.meta.url));

/** What the fixture server wrote: its starts and every call it received. */
export type FixtureEvent =
  | { event: 'start'; pid: number }
  | { event: 'call'; name: string; args: unknown }
  | { event: 'cancelled'; name: string };

/**
 * Opens mcpTools on the stdio fixture server (a real child process), closing every one after each
 * test; `log` is the file the server appends its starts and calls to.
 */
export function useFixtureServer() {
  const tempDir = useTempDir();
  const opened: McpTools[] = [];
  afterEach(async () => {
    for (const tools of opened.splice(0)) await tools.close();
  });
  const log = () => join(tempDir(), 'server.log');
  return {
    tempDir,
    log,
    async open(options: McpToolsOptions & Partial<McpStdioServer> = {}, variant?: 'changed'): Promise<McpTools> {
      const tools = await mcpTools({
        command: process.execPath,
        args: [STDIO_FIXTURE],
        env: { MCP_FIXTURE_LOG: log(), ...(variant === undefined ? {} : { MCP_FIXTURE_VARIANT: variant }) },
        stderr: 'ignore',
        ...options,
      });
      opened.push(tools);
      return tools;
    },
    events(): FixtureEvent[] {
      let text = '';
      try {
        text = readFileSync(log(), 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as FixtureEvent);
    },
  };
}
