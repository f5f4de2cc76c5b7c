import { UsageError } from '../errors/UsageError.js';
import { RuleConfigurationError, limitProblem, ruleShapeProblem } from '../guard/checkRules.js';
import { toolsNamedBy, type Rule } from '../guard/rules.js';
import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import { isDefinedTool } from '../tools/defineTool.js';
import type { AnyTool } from '../tools/tool.js';
import { unknownOptionMessage } from '../tools/unknownOption.js';
import { legateVersion } from '../version.js';

/** What {@link serveMcp} serves, and how. */
export interface ServeMcpOptions {
  /** The tools to serve: a list, or a record of tools (its keys are ignored: a tool has its own name). */
  tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>>;
  /** The server's name in the MCP handshake. Default `legate`. */
  name?: string;
  /** The server's version in the MCP handshake. Default: legate's version. */
  version?: string;
  /**
   * Contracts from legate's guard (`rules.limit`, `rules.require`, `rules.terminal`), kept per MCP
   * session: each session (a client connection) has its own counts and successes.
   */
  contracts?: readonly Rule[];
  /** `stdio` (default): this process's stdin and stdout. `http`: Streamable HTTP on a local port. */
  transport?: 'stdio' | 'http';
  /** For `http`: the port to listen on. Default 0: a free port, read from the handle. */
  port?: number;
  /** For `http`: the address to listen on. Default `127.0.0.1` (this machine only). */
  host?: string;
}

/** The options, checked and with every default filled in. */
export interface ServeMcpSettings {
  tools: ReadonlyMap<string, AnyTool>;
  name: string;
  version: string;
  contracts: readonly Rule[];
  transport: 'stdio' | 'http';
  port: number;
  host: string;
}

const OPTIONS = ['tools', 'name', 'version', 'contracts', 'transport', 'port', 'host'] as const;

function fail(message: string): never {
  throw new UsageError('invalid_serve_option', `serveMcp: ${message}`);
}

/**
 * Reads serveMcp's options: every tool a tool made by defineTool (its binder compiled), names
 * unique, contracts naming served tools. Plain JavaScript and a module loaded by the CLI reach here
 * untyped, so nothing is assumed.
 */
export function readServeMcpOptions(options: unknown): ServeMcpSettings {
  if (!isPlainObject(options)) fail(`expected options such as { tools: [...] }, but got ${describeValue(options)}.`);
  for (const key of Object.keys(options))
    if (!(OPTIONS as readonly string[]).includes(key))
      fail(unknownOptionMessage(key, OPTIONS, { one: 'an option of serveMcp', all: 'options' }));
  const tools = readTools(options.tools);
  const text = (key: 'name' | 'version' | 'host', fallback: string): string => {
    const value = options[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || value === '')
      fail(`'${key}' must be a non-empty string, but it was ${describeValue(value)}.`);
    return value;
  };
  const transport = options.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http')
    fail(`'transport' must be 'stdio' or 'http', but it was ${describeValue(transport)}.`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535)
    fail(`'port' must be a whole number from 0 to 65535 (0: any free port), but it was ${describeValue(port)}.`);
  if (options.port !== undefined && transport !== 'http')
    fail("'port' is for transport: 'http'; over stdio there is no port. Add transport: 'http', or leave out 'port'.");
  return {
    tools,
    name: text('name', 'legate'),
    version: text('version', legateVersion()),
    contracts: readContracts(options.contracts, [...tools.keys()]),
    transport,
    port: port as number,
    host: text('host', '127.0.0.1'),
  };
}

function readTools(value: unknown): Map<string, AnyTool> {
  const list = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : undefined;
  if (list === undefined || list.length === 0)
    fail(
      `'tools' must be a non-empty list (or record) of tools made with defineTool, but it was ${describeValue(value)}.`,
    );
  const tools = new Map<string, AnyTool>();
  for (const [i, tool] of list.entries()) {
    if (!isDefinedTool(tool))
      fail(
        `tools[${i}] must be a tool made with defineTool, but it was ${describeValue(tool)}. A server tool ` +
          '(web search, ...) runs at the API and cannot be served.',
      );
    if (tools.has(tool.name)) fail(`two tools are named '${tool.name}'; an MCP client calls tools by name.`);
    tools.set(tool.name, tool);
  }
  return tools;
}

function readContracts(value: unknown, served: readonly string[]): Rule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    fail(`'contracts' must be a list of rules (rules.limit(...), ...), but it was ${describeValue(value)}.`);
  for (const [i, rule] of value.entries()) {
    const shape = ruleShapeProblem(rule);
    if (shape !== undefined) fail(`contracts[${i}] ${shape}`);
    const checked = rule as Rule;
    for (const name of toolsNamedBy(checked))
      if (!served.includes(name))
        throw new RuleConfigurationError(
          name,
          `serveMcp: a ${checked.kind} contract names '${name}', which is not a served tool; the served tools are ` +
            `${served.map((t) => `'${t}'`).join(', ')}.`,
        );
    const limit = checked.kind === 'limit' ? limitProblem(checked.maxCalls) : undefined;
    if (limit !== undefined)
      throw new RuleConfigurationError(checked.tool, `serveMcp: the limit on '${checked.tool}' ${limit}.`);
  }
  return value as Rule[];
}
