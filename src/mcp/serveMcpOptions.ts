import { UsageError } from '../errors/UsageError.js';
import { RuleConfigurationError, limitProblem, ruleShapeProblem } from '../guard/checkRules.js';
import { toolsNamedBy, type Rule } from '../guard/rules.js';
import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import { foreignToolProblem, isDefinedTool } from '../tools/toolBrand.js';
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
  /**
   * For `http`: the most sessions open at once, those still initializing included. Another
   * `initialize` is then answered 503 (with `Retry-After`) until one ends or expires. Default 200.
   */
  maxSessions?: number;
  /**
   * For `http`: milliseconds a session may go without a request before it is closed (a later
   * request with its id is answered 404). A session with a response still open (a tool running, an
   * SSE stream) is in use, never idle. Default 600,000 (10 minutes).
   */
  idleTimeoutMs?: number;
  /**
   * For `http`: milliseconds a request's headers and body may take to arrive; a slower one is
   * answered 408 and its connection closed. Default 30,000.
   */
  readTimeoutMs?: number;
}

/** The most sessions served over HTTP at once, unless `maxSessions` says otherwise. */
const DEFAULT_MAX_SESSIONS = 200;
/** How long an HTTP session may stay idle, unless `idleTimeoutMs` says otherwise: 10 minutes. */
const DEFAULT_IDLE_TIMEOUT_MS = 600_000;
/** How long a request may take to arrive, unless `readTimeoutMs` says otherwise. */
const DEFAULT_READ_TIMEOUT_MS = 30_000;
/** The longest a timer can wait (2^31 - 1 ms, about 24.8 days): a longer one would fire at once. */
const LONGEST_WAIT_MS = 2_147_483_647;

/** The options, checked and with every default filled in. */
export interface ServeMcpSettings {
  tools: ReadonlyMap<string, AnyTool>;
  name: string;
  version: string;
  contracts: readonly Rule[];
  transport: 'stdio' | 'http';
  port: number;
  host: string;
  maxSessions: number;
  idleTimeoutMs: number;
  readTimeoutMs: number;
}

const OPTIONS = [
  'tools',
  'name',
  'version',
  'contracts',
  'transport',
  'port',
  'host',
  'maxSessions',
  'idleTimeoutMs',
  'readTimeoutMs',
] as const;
type Complete<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
const optionsComplete: Complete<(typeof OPTIONS)[number], keyof ServeMcpOptions> = true;
void optionsComplete;
/** The options only Streamable HTTP has. */
const HTTP_OPTIONS = ['port', 'maxSessions', 'idleTimeoutMs', 'readTimeoutMs'] as const;

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
  if (transport !== 'http')
    for (const key of HTTP_OPTIONS)
      if (options[key] !== undefined)
        fail(
          `'${key}' is for transport: 'http'; over stdio there is ${overStdio[key]}. Add transport: 'http', ` +
            `or leave out '${key}'.`,
        );
  const positive = (key: (typeof HTTP_OPTIONS)[number], fallback: number, max: number, expected: string): number => {
    const value = options[key] === undefined ? fallback : options[key];
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max)
      fail(`'${key}' must be ${expected}, but it was ${describeValue(value)}.`);
    return value as number;
  };
  const wait = `a whole number of milliseconds from 1 to ${LONGEST_WAIT_MS} (about 24.8 days)`;
  return {
    tools,
    name: text('name', 'legate'),
    version: text('version', legateVersion()),
    contracts: readContracts(options.contracts, [...tools.keys()]),
    transport,
    port: port as number,
    host: text('host', '127.0.0.1'),
    maxSessions: positive('maxSessions', DEFAULT_MAX_SESSIONS, Number.MAX_SAFE_INTEGER, 'a whole number of at least 1'),
    idleTimeoutMs: positive('idleTimeoutMs', DEFAULT_IDLE_TIMEOUT_MS, LONGEST_WAIT_MS, wait),
    readTimeoutMs: positive('readTimeoutMs', DEFAULT_READ_TIMEOUT_MS, LONGEST_WAIT_MS, wait),
  };
}

/** What stdio has instead of each HTTP option. */
const overStdio: Record<(typeof HTTP_OPTIONS)[number], string> = {
  port: 'no port',
  maxSessions: "one session, the process's",
  idleTimeoutMs: 'one session, ended when the client closes standard input',
  readTimeoutMs: 'no HTTP request to time',
};

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
        foreignToolProblem(tool, `tools[${i}]`) ??
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
    if (shape !== undefined) fail(`contracts[${i}] ${shape}.`);
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
