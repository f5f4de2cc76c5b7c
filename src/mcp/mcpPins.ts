import { FileReadError, MAX_STRING_FILE_BYTES, readRegularFile } from '../files/readRegularFile.js';
import { writeFileAtomic } from '../files/writeFileAtomic.js';
import { describeValue } from '../json/describeValue.js';
import { firstDifference } from '../json/firstDifference.js';
import { jsonText } from '../json/jsonText.js';
import { isPlainObject } from '../json/jsonValue.js';
import { McpPinError, type McpToolChange } from './McpPinError.js';
import { definitionOf, type McpToolDefinition } from './mcpToolDefinition.js';

/** The pin file's format version. */
const PINS_VERSION = 1;

const REPIN = 'If the change is expected, re-pin: mcpTools({ ..., repin: true }) or LEGATE_MCP_REPIN=1.';

/** The pinned definitions in `file`, or undefined when there is no such file. */
export function readPins(file: string): McpToolDefinition[] | undefined {
  let text: string;
  try {
    // Only a regular file: a FIFO or a device in its place is refused (a FileReadError), not waited on.
    text = readRegularFile(file, MAX_STRING_FILE_BYTES);
  } catch (error) {
    if (error instanceof FileReadError && error.code === 'not_found') return undefined;
    throw error;
  }
  const invalid = (problem: string): never => {
    throw new McpPinError(
      'invalid_mcp_pins',
      file,
      `${file} is not an MCP pin file: ${problem}. Pin files are written by mcpTools({ ..., pin }); ` +
        'delete it (or pass repin: true) to write it again from the server.',
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return invalid(`it is not JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(parsed)) return invalid(`it holds ${describeValue(parsed)}, not { version, tools }`);
  if (parsed.version !== PINS_VERSION)
    return invalid(`its version is ${describeValue(parsed.version)}; this legate reads version ${PINS_VERSION}`);
  if (!Array.isArray(parsed.tools)) return invalid(`'tools' is ${describeValue(parsed.tools)}, not a list`);
  return parsed.tools.map((tool: unknown, i: number) =>
    isPlainObject(tool) && typeof tool.name === 'string' && isPlainObject(tool.inputSchema)
      ? definitionOf(tool)
      : invalid(`tools[${i}] is ${describeValue(tool)}, not { name, inputSchema, ... }`),
  );
}

/**
 * Writes the definitions to `file` atomically: readable JSON, the tools in the order given (the
 * server's, so tools built from the pins are offered in the order a live listing offers them), each
 * tool's keys in a fixed order and the keys of its schema and annotations sorted, so a re-pin of an
 * unchanged server writes the same bytes.
 */
export function writePins(file: string, definitions: readonly McpToolDefinition[]): void {
  const tools = definitions.map((definition) => {
    const sorted = JSON.parse(jsonText(definition, { sortKeys: true })!) as McpToolDefinition;
    return definitionOf({ ...definition, inputSchema: sorted.inputSchema, annotations: sorted.annotations });
  });
  writeFileAtomic(file, `${JSON.stringify({ version: PINS_VERSION, tools }, null, 2)}\n`);
}

/**
 * Compares the server's live tools with the pinned ones: each pinned tool must be listed with the
 * same definition. Throws {@link McpPinError} naming every tool that changed or disappeared, with
 * the first difference in each. Tools the server lists but the pins do not are not compared (they
 * are not offered).
 */
export function checkPins(
  file: string | undefined,
  pinned: readonly McpToolDefinition[],
  live: readonly McpToolDefinition[],
): void {
  const changes: McpToolChange[] = [];
  for (const pin of pinned) {
    const now = live.find((tool) => tool.name === pin.name);
    if (now === undefined) {
      changes.push({ tool: pin.name, path: '', expected: pin, actual: undefined });
      continue;
    }
    const difference = firstDifference(pin, now);
    if (difference !== undefined) changes.push({ tool: pin.name, ...difference });
  }
  if (changes.length === 0) return;
  const lines = changes.map((change) =>
    change.path === ''
      ? `- '${change.tool}': the server no longer lists it`
      : `- '${change.tool}' at ${change.path}: pinned ${describeValue(change.expected)}, ` +
        `the server now sends ${describeValue(change.actual)}`,
  );
  throw new McpPinError(
    'mcp_tool_changed',
    file,
    `The MCP server's tools differ from ${pinsName(file)}; ` +
      `legate calls no tool whose definition changed after it was pinned:\n${lines.join('\n')}\n${REPIN}`,
    changes,
  );
}

function pinsName(file: string | undefined): string {
  return file === undefined ? 'those it listed when mcpTools started' : `the pins in ${file}`;
}
