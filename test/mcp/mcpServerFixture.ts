import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { mcpTools, type McpStdioServer, type McpTools, type McpToolsOptions } from '../../src/mcp/index.js';
import { waitForText } from '../support/statusFile.js';
import { useTempDir } from '../support/tempDir.js';

const STDIO_FIXTURE = fileURLToPath(new URL('./fixtures/client-stdio.mjs', import.meta.url));

/** What the fixture server wrote: its starts and every call it received. */
export type FixtureEvent =
  | { event: 'start'; pid: number }
  | { event: 'call'; name: string; args: unknown }
  | { event: 'cancelled'; name: string };

/** The events in the text of the server's log: its complete lines (a line being appended is not one yet). */
function parseEvents(text: string): FixtureEvent[] {
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as FixtureEvent);
}

/**
 * Opens mcpTools on the stdio fixture server (a real child process), closing every one after each
 * test; `log` is the file the server appends its starts and calls to. `until` waits for the server's events, on the
 * log's changes; `release` lets the server's `progress` tool take its next step.
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
      return parseEvents(text);
    },
    /** Resolves once the server's events so far satisfy `done`, however long the machine takes. */
    async until(done: (events: FixtureEvent[]) => boolean): Promise<void> {
      await waitForText(log(), (text) => done(parseEvents(text)));
    },
    /** Lets the server's `progress` tool take its step `step` (1 to 6: a report; 7: the answer). */
    release(step: number): void {
      writeFileSync(`${log()}.release-${step}`, '');
    },
  };
}
