import { loadServeModule, serveMcp, type McpServing } from '../../src/mcp/index.js';
import { quoteValue } from '../../src/json/describeValue.js';
import { parseOptions } from '../parseOptions.js';
import { mcpList, mcpListHelp } from './mcpList.js';
import type { CliIo } from '../io.js';

export const mcpHelp = `${mcpListHelp}

legate mcp serve <module> [--http <port>] [--host <address>] [--tools a,b] [--name <name>]
    [--max-sessions <n>] [--idle-timeout <ms>] [--read-timeout <ms>]

Serves the tools a module exports over the Model Context Protocol: its 'tools' export (a list
or a record of tools made with defineTool), else its default export, with its 'contracts'
export (rules.limit(...), ...) kept per MCP session. TypeScript modules are loaded through tsx.
Over stdio by default: standard output then carries the protocol, so the tools must not write
to it (console.log); legate's own notices go to standard error. --http <port> serves Streamable
HTTP at http://<host>:<port>/mcp instead (port 0: any free one; the URL is printed), on
127.0.0.1 unless --host says otherwise; it holds at most --max-sessions sessions (default 200),
closes one idle for --idle-timeout milliseconds (default 600000, 10 minutes) and answers 408 to
a request that takes over --read-timeout milliseconds to arrive (default 30000). --tools serves
only the tools named. Runs until the client closes standard input (stdio), or until
interrupted (Ctrl-C).`;

/** The flags of serveMcp's HTTP bounds, and the option each sets. */
const BOUNDS = [
  ['max-sessions', 'maxSessions'],
  ['idle-timeout', 'idleTimeoutMs'],
  ['read-timeout', 'readTimeoutMs'],
] as const;

export async function mcp(args: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = args;
  if (verb === 'list') return mcpList(rest, io);
  if (verb !== 'serve') {
    io.err(
      `legate mcp: ${verb === undefined ? 'give a verb' : `'${verb}' is not a verb`}; the verbs are 'list' and ` +
        "'serve', e.g. legate mcp list npx -y @modelcontextprotocol/server-filesystem . or legate mcp serve tools.ts",
    );
    return 2;
  }
  const { values, positionals } = parseOptions({
    args: rest,
    allowPositionals: true,
    options: {
      http: { type: 'string' },
      host: { type: 'string' },
      tools: { type: 'string' },
      name: { type: 'string' },
      'max-sessions': { type: 'string' },
      'idle-timeout': { type: 'string' },
      'read-timeout': { type: 'string' },
    },
  });
  if (positionals.length !== 1) {
    io.err(`legate mcp serve: give one module whose tools to serve, e.g. legate mcp serve tools.ts`);
    return 2;
  }
  const port = values.http === undefined ? undefined : portOf(values.http);
  if (typeof port === 'string') {
    io.err(`legate mcp serve: ${port}`);
    return 2;
  }
  if (values.host !== undefined && port === undefined) {
    io.err('legate mcp serve: --host is for --http <port>; over stdio there is no address.');
    return 2;
  }
  const bounds: Partial<Record<(typeof BOUNDS)[number][1], number>> = {};
  for (const [flag, option] of BOUNDS) {
    const given = values[flag];
    if (given === undefined) continue;
    if (port === undefined) {
      io.err(`legate mcp serve: --${flag} is for --http <port>; over stdio there are no HTTP sessions or requests.`);
      return 2;
    }
    const number = /^\d+$/.test(given) ? Number(given) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < 1) {
      io.err(`legate mcp serve: --${flag} must be a whole number of at least 1, but it was ${quoteValue(given)}.`);
      return 2;
    }
    bounds[option] = number;
  }
  const only = values.tools
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const chosen = await loadServeModule(positionals[0]!, { cwd: io.cwd, ...(only === undefined ? {} : { only }) });
  const serving = await serveMcp({
    ...chosen,
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(port === undefined ? {} : { transport: 'http' as const, port, host: values.host ?? '127.0.0.1', ...bounds }),
  });
  const count = `${chosen.tools.length} tool${chosen.tools.length === 1 ? '' : 's'}`;
  if (serving.url !== undefined) io.out(`legate mcp serve: serving ${count} at ${serving.url}`);
  else io.err(`legate mcp serve: serving ${count} over stdio`);
  await untilStopped(serving);
  return 0;
}

/** Waits for the server to stop: closed by the client (stdio), or an interrupt. */
async function untilStopped(serving: McpServing): Promise<void> {
  const stop = () => void serving.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await serving.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function portOf(given: string): number | string {
  const port = /^\d+$/.test(given) ? Number(given) : Number.NaN;
  if (Number.isSafeInteger(port) && port <= 65535) return port;
  return `--http must be a port, a whole number from 0 to 65535 (0: any free port), but it was ${quoteValue(given)}.`;
}
