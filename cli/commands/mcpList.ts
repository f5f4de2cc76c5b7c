import {
  mcpTools,
  mcpToolPosture,
  type McpServerOptions,
  type McpToolDefinition,
  type McpToolFlags,
  type McpToolPosture,
} from '../../src/mcp/index.js';
import { quoteValue } from '../../src/json/describeValue.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../parseOptions.js';
import { terminalLines } from '../terminalText.js';

export const mcpListHelp = `legate mcp list [--trusted a,b] [--tools a,b] [--] <server command...>
legate mcp list [--trusted a,b] [--tools a,b] --url <url>

Starts an MCP server (its command and arguments, run as a child process over stdio; or --url for
one over Streamable HTTP), lists its tools and prints, per tool, the safety flags mcpTools gives
it, and what decided each: untrusted (its results taint the run: always, whatever the tool's
hints say, unless marked trusted) and privileged (a tainted run may not call it: unless
readOnlyHint is true, and always when destructiveHint is true). No tool is called. --trusted
marks tools trusted, as mcpTools({ flags: { name: { untrusted: false } } }) does, to see the
result; --tools lists only the tools named. legate's options come before the server's command
(or end at --). Exits 0 when the tools were listed, 2 when the server could not be started or
reached, a tool could not be made a legate tool, or an option is wrong (one line saying why).`;

/** The options that take a value: everything before the server's command is legate's. */
const VALUED = ['--trusted', '--tools', '--url'];

export async function mcpList(args: string[], io: CliIo): Promise<number> {
  const { options, command } = splitCommand(args);
  const { values } = parseOptions({
    args: options,
    options: {
      trusted: { type: 'string', multiple: true },
      tools: { type: 'string', multiple: true },
      url: { type: 'string' },
    },
  });
  if (values.url !== undefined && command.length > 0) {
    io.err(
      "legate mcp list: give the server's command or --url, not both " +
        `(the command was ${quoteValue(command.join(' '))}).`,
    );
    return 2;
  }
  if (values.url === undefined && command.length === 0) {
    io.err(
      "legate mcp list: give the server's command, e.g. " +
        'legate mcp list npx -y @modelcontextprotocol/server-filesystem .',
    );
    return 2;
  }
  let server: McpServerOptions;
  if (values.url === undefined) server = { command: command[0]!, args: command.slice(1) };
  else if (URL.canParse(values.url)) server = { url: values.url };
  else {
    io.err(
      "legate mcp list: --url must be the server's URL, such as http://127.0.0.1:3000/mcp, " +
        `but it was ${quoteValue(values.url)}.`,
    );
    return 2;
  }
  const trusted = listOf(values.trusted);
  const only = values.tools === undefined ? undefined : listOf(values.tools);
  const flags: Record<string, McpToolFlags> = Object.fromEntries(trusted.map((name) => [name, { untrusted: false }]));
  // Every tool the server lists is seen; only those asked for are made legate tools (a tool legate cannot make is
  // left out with --tools, as with mcpTools' filter).
  const names: string[] = [];
  const filter = (definition: McpToolDefinition) => {
    names.push(definition.name);
    return only === undefined || only.includes(definition.name);
  };
  const listed = await mcpTools({ ...server, filter, flags });
  try {
    const unknown = [...(only ?? []), ...trusted].find((name) => !names.includes(name));
    if (unknown !== undefined) {
      io.err(
        `legate mcp list: ${only?.includes(unknown) ? '--tools' : '--trusted'} names ${quoteValue(unknown)}, which ` +
          `the server does not list; its tools are ${names.map((name) => `'${name}'`).join(', ') || 'none'}.`,
      );
      return 2;
    }
    const rows = listed.definitions.map((definition) => ({
      name: definition.name,
      posture: mcpToolPosture(definition, flags[definition.name]),
    }));
    io.out(terminalLines(postureTable(rows, values.url ?? command.join(' '))));
    return 0;
  } finally {
    await listed.close();
  }
}

/** legate's options, and the server's command: from the first argument that is not an option, or after `--`. */
function splitCommand(args: readonly string[]): { options: string[]; command: string[] } {
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { options, command: args.slice(i + 1) };
    if (!arg.startsWith('-')) return { options, command: args.slice(i) };
    options.push(arg);
    if (VALUED.includes(arg) && i + 1 < args.length) options.push(args[++i]!);
  }
  return { options, command: [] };
}

function listOf(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',').map((name) => name.trim())).filter((name) => name !== '');
}

/** What decided the untrusted flag, then the privileged one, in words. */
function why(posture: McpToolPosture): string {
  const untrusted =
    posture.decidedBy.untrusted === 'flag'
      ? `marked ${posture.untrusted ? 'untrusted' : 'trusted'}`
      : 'results untrusted whatever the hints';
  const privileged = {
    flag: `marked ${posture.privileged ? '' : 'not '}privileged`,
    destructiveHint: 'destructiveHint: true',
    readOnlyHint: `readOnlyHint: ${!posture.privileged}`,
    default: "no readOnlyHint (MCP's default: false)",
  }[posture.decidedBy.privileged];
  return `${untrusted}; ${privileged}`;
}

/** The table `legate mcp list` prints: a header, a row per tool, and how to mark a tool trusted. */
function postureTable(rows: readonly { name: string; posture: McpToolPosture }[], server: string): string {
  const yes = (flag: boolean) => (flag ? 'yes' : 'no');
  const table = [
    ['tool', 'untrusted', 'privileged', 'why'],
    ...rows.map(({ name, posture }) => [name, yes(posture.untrusted), yes(posture.privileged), why(posture)]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...table.map((row) => row[column]!.length)));
  const lines = table.map((row) => `  ${row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  ')}`);
  const count = `${rows.length} tool${rows.length === 1 ? '' : 's'}`;
  const byDefault = rows.find(({ posture }) => posture.decidedBy.untrusted === 'default');
  return [
    `${server}: ${count}`,
    ...lines,
    ...(byDefault === undefined
      ? []
      : [
          '',
          "A tool's results are untrusted whatever its hints say: openWorldHint: false says where it reaches,",
          'not who wrote what it returns. When its content is yours, mark it trusted:',
          `  mcpTools({ ..., flags: { ${byDefault.name}: { untrusted: false } } })` +
            `   (here: --trusted ${byDefault.name})`,
        ]),
  ].join('\n');
}
