import { copyValue } from '../json/copyValue.js';
import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';
import type { ServerToolDefinition } from '../messages/types.js';
import { ToolDeclarationError } from './declarationError.js';
import { unknownOptionMessage } from './unknownOption.js';

/**
 * A tool the API runs itself (web search, web fetch, code execution, tool search, and any later
 * `type`): its definition, sent to the API exactly as given, and whether what it returns is
 * outside-authored content (`untrusted`): a result of an untrusted server tool taints the run,
 * with the tool's name as the source.
 */
export interface ServerTool {
  readonly kind: 'server';
  readonly name: string;
  readonly type: string;
  readonly untrusted: boolean;
  /** The definition as the API is sent it (the same frozen object every time). */
  definition(): Readonly<ServerToolDefinition>;
}

export interface ServerToolOptions {
  /** Whether its results taint the run. Default: see {@link defaultServerToolUntrusted}. */
  untrusted?: boolean;
}

const SERVER_TOOL_OPTIONS = ['untrusted'] as const;

/**
 * The server tools whose results legate trusts by default: tool search (its results name tools of
 * the agent's own list). Every other server tool, a future `type` included, returns content legate
 * cannot vouch for (a web page, a search result, an MCP server's answer, the output of code run on
 * uploaded files), so its results taint unless the agent says otherwise.
 */
export function defaultServerToolUntrusted(name: string): boolean {
  return !name.startsWith('tool_search_tool');
}

/**
 * The server tool a use block's name belongs to: code execution runs its sub-tools under their
 * own names (`bash_code_execution`, `text_editor_code_execution`), which answer to the
 * `code_execution` tool the agent offers.
 */
function familyOf(useName: string): string {
  return useName.endsWith('_code_execution') ? 'code_execution' : useName;
}

/** Whether the result of a server tool use of this name taints: the agent's setting for the tool, else the default. */
export function serverToolUntrusted(tools: ReadonlyMap<string, ServerTool>, useName: string): boolean {
  const tool = tools.get(useName) ?? tools.get(familyOf(useName));
  return tool?.untrusted ?? defaultServerToolUntrusted(useName);
}

const serverTools = new WeakSet<object>();

/** Whether a value is a server tool made by {@link serverTool}. */
export function isServerTool(value: unknown): value is ServerTool {
  return typeof value === 'object' && value !== null && serverTools.has(value);
}

/**
 * A server tool from its API definition (`{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }`),
 * with legate's own setting beside it, never inside what is sent. An agent's `tools` also take the
 * definition alone, as `serverTool(definition)`.
 */
export function serverTool(definition: ServerToolDefinition, options: ServerToolOptions = {}): ServerTool {
  const fail = (path: string, message: string): never => {
    const name = isPlainObject(definition) && typeof definition.name === 'string' ? definition.name : '';
    throw new ToolDeclarationError('invalid_server_tool', name, path, message);
  };
  const problem = serverToolProblem(definition);
  if (problem !== undefined) fail(problem.path, problem.message);
  if (!isPlainObject(options))
    fail('options', `serverTool's options must be { untrusted }, but were ${describeValue(options)}.`);
  for (const key of Object.keys(options))
    if (!(SERVER_TOOL_OPTIONS as readonly string[]).includes(key))
      fail(key, unknownOptionMessage(key, SERVER_TOOL_OPTIONS, { one: 'an option of a server tool', all: 'options' }));
  if (options.untrusted !== undefined && typeof options.untrusted !== 'boolean')
    fail('untrusted', `'untrusted' must be true or false, but it was ${describeValue(options.untrusted)}.`);
  const frozen = Object.freeze(copyValue(definition)) as Readonly<ServerToolDefinition>;
  const tool: ServerTool = Object.freeze({
    kind: 'server' as const,
    name: frozen.name,
    type: frozen.type,
    untrusted: options.untrusted ?? defaultServerToolUntrusted(frozen.name),
    definition: () => frozen,
  });
  serverTools.add(tool);
  return tool;
}

/**
 * What keeps a value from being a server tool definition, or undefined: a plain object with a
 * non-empty string `type` and `name`, whose `type` is not `custom` (a tool legate runs is made
 * with defineTool) and that holds only JSON.
 */
export function serverToolProblem(value: unknown): { path: string; message: string } | undefined {
  if (!isPlainObject(value))
    return {
      path: '',
      message:
        "a server tool is a definition such as { type: 'web_search_20250305', name: 'web_search' }, but it was " +
        `${describeValue(value)}.`,
    };
  if (typeof value.type !== 'string' || value.type === '')
    return {
      path: 'type',
      message: `a server tool needs its 'type' (e.g. 'web_search_20250305'), but it was ${describeValue(value.type)}.`,
    };
  if (value.type === 'custom')
    return { path: 'type', message: "a tool of type 'custom' is one legate runs: declare it with defineTool(...)." };
  if (typeof value.name !== 'string' || value.name === '')
    return {
      path: 'name',
      message:
        `server tool '${value.type}' needs its 'name' (e.g. 'web_search'), but it was ` +
        `${describeValue(value.name)}.`,
    };
  return undefined;
}
