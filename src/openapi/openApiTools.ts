import { ToolDeclarationError } from '../tools/declarationError.js';
import { defineTool } from '../tools/defineTool.js';
import type { AnyTool } from '../tools/tool.js';
import { unknownOptionMessage } from '../tools/unknownOption.js';
import { callOperation, type CallSettings } from './callOperation.js';
import { InputBudget } from './inputBudget.js';
import { checkOptions, type OpenApiToolsOptions } from './openApiOptions.js';
import { OpenApiError } from './OpenApiError.js';
import { toText } from './openApiText.js';
import { operationInput, publishedWithin, tooLargeInput, type OperationInput } from './operationInput.js';
import { READ_METHODS, operationsOf, type Operation } from './operations.js';
import { operationToolName } from './operationToolName.js';
import { NOT_SELECTED, type SkippedOperation, type SummaryRow } from './operationRows.js';
import { rawDocument } from './rawDocument.js';
import { DEFAULT_MAX_DOCUMENT_NODES, readDocument } from './readDocument.js';
import { listedOperations, selectedPart } from './selectedPart.js';
import { tooManyTools } from './tooManyTools.js';

/** The tools built from an OpenAPI document, the operations that were not, and a summary of both. */
export interface OpenApiTools {
  /** One tool per operation selected and buildable, in the document's order. */
  readonly tools: AnyTool[];
  /**
   * Every other operation, each with its reason (not selected; a required header; a body neither JSON nor a
   * form; ...), then each parameter of a tool left out of its input (`parameter`: an optional header or cookie).
   */
  readonly skipped: SkippedOperation[];
  /**
   * A readable summary: every operation selected, grouped by tag, each tool with its name and flags; each
   * operation or parameter skipped, with its reason; the operations not selected, counted by tag.
   */
  toText(): string;
}

const DEFAULT_MAX_TOOLS = 64;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Tools for the operations of an OpenAPI 3.0 or 3.1 document (an object, JSON or YAML text), with
 * their safety posture derived from it: reads (GET, HEAD, OPTIONS) untrusted, the rest privileged,
 * so once the model has read a response no write runs. Reading the document makes no network
 * call, and reads only what the selected operations reach, up to `maxDocumentNodes`. See
 * docs/openapi.md for the input each tool takes and what a call sends and returns.
 */
export async function openApiTools(spec: unknown, options?: OpenApiToolsOptions): Promise<OpenApiTools> {
  const o = checkOptions(options);
  const { raw, version } = rawDocument(spec);
  const operations = listedOperations(raw);
  checkNamed(operations, o);
  const selected = new Set(
    operations.filter((operation) => notSelected(operation, o) === undefined).map((op) => op.label),
  );
  const maxNodes = o.maxDocumentNodes ?? DEFAULT_MAX_DOCUMENT_NODES;
  const document = await readDocument(selectedPart(raw, selected), maxNodes, raw);
  const inputs = new InputBudget(maxNodes);
  const baseUrl = o.baseUrl ?? document.serverUrl;
  if (baseUrl === undefined)
    throw new OpenApiError(
      'openapi_invalid_option',
      "openApiTools needs 'baseUrl' (e.g. 'https://api.example.com/v1'): the document names no absolute server URL.",
    );
  // As the parser read them; the selected part holds every operation selected. One that only the parser's
  // reading finds (a path item's $ref read differently) is listed after the others, selected or not the same way.
  const read = new Map(operationsOf(document.api).map((operation) => [operation.label, operation]));
  const listedLabels = new Set(operations.map((operation) => operation.label));
  const all = [...operations, ...[...read.values()].filter((operation) => !listedLabels.has(operation.label))];
  const headers = o.headers;
  const settings: CallSettings = {
    baseUrl,
    headers: typeof headers === 'function' ? headers : () => ({ ...headers }),
    fetch: o.fetch ?? ((...args) => fetch(...args)),
    timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const tools: AnyTool[] = [];
  const rows: SummaryRow[] = [];
  const skipped: SkippedOperation[] = [];
  const leftOut: SkippedOperation[] = [];
  const byName = new Map<string, string>();
  for (const listed of all) {
    const named = listed.operationId === undefined ? {} : { operationId: listed.operationId };
    const row = { operation: listed.label, tags: listed.tags };
    const skip = (reason: string) => {
      skipped.push({ operation: listed.label, ...named, reason });
      rows.push({ ...row, selected: !reason.startsWith(NOT_SELECTED), tool: undefined });
    };
    const unselected = notSelected(listed, o);
    if (unselected !== undefined) {
      skip(unselected);
      continue;
    }
    const operation = read.get(listed.label);
    if (operation === undefined) {
      skip("its path item's $ref leads to nothing the parser reads; make it a path item of the document's own.");
      continue;
    }
    const input = operationInput(operation, inputs);
    if ('skip' in input) {
      skip(input.skip);
      continue;
    }
    const name = operationToolName(operation, o.prefix);
    const taken = byName.get(name);
    if (name === '' || taken !== undefined) {
      skip(
        name === ''
          ? 'no tool name can be made of it: its operationId has no letter or digit.'
          : `its tool name '${name}' is already the name of ${taken}'s tool; give one of them another operationId.`,
      );
      continue;
    }
    try {
      if (!publishedWithin(name, input.schema, inputs)) {
        skip(tooLargeInput());
        continue;
      }
      const tool = toolOf(operation, input, name, settings, o);
      byName.set(name, operation.label);
      tools.push(tool);
      const { untrusted, privileged, policy } = tool;
      rows.push({ ...row, selected: true, tool: { name, operation: operation.label, untrusted, privileged, policy } });
      for (const parameter of input.leftOut)
        leftOut.push({ operation: operation.label, ...named, parameter, reason: leftOutReason(parameter.in) });
    } catch (error) {
      if (!(error instanceof ToolDeclarationError)) throw error;
      skip(`its input schema cannot be checked: ${error.message}`);
    }
  }
  const maxTools = o.maxTools ?? DEFAULT_MAX_TOOLS;
  if (tools.length > maxTools) throw tooManyTools(rows, maxTools, o.tags !== undefined || o.operationIds !== undefined);
  const title = `${document.title ?? 'OpenAPI document'} (OpenAPI ${version})`;
  const reported = [...skipped, ...leftOut];
  return { tools, skipped: reported, toText: () => toText(title, rows, reported) };
}

/** Operations are named in options by operationId, or `GET /path` when they have none. */
const keyOf = (operation: Operation): string => operation.operationId ?? operation.label;

function checkNamed(operations: readonly Operation[], o: OpenApiToolsOptions): void {
  const known = operations.map(keyOf);
  const named: [string, readonly string[]][] = [
    ['operationIds', o.operationIds ?? []],
    ['untrusted', Object.keys(o.untrusted ?? {})],
    ['privileged', Object.keys(o.privileged ?? {})],
  ];
  for (const [option, keys] of named)
    for (const key of keys)
      if (!known.includes(key))
        throw new OpenApiError(
          'openapi_invalid_option',
          `openApiTools: '${option}' names ${unknownOptionMessage(key, known, {
            one: 'an operation of the document',
            all: 'operations (by operationId, or as GET /path)',
          }).replace(/^'/, "'")}`,
        );
}

function notSelected(operation: Operation, o: OpenApiToolsOptions): string | undefined {
  if (o.operationIds !== undefined && !o.operationIds.includes(keyOf(operation)))
    return `${NOT_SELECTED}: it is not among the operationIds asked for.`;
  if (o.tags !== undefined && !operation.tags.some((tag) => o.tags?.includes(tag)))
    return `${NOT_SELECTED}: its tags (${operation.tags.join(', ') || 'none'}) are not among those asked for.`;
  return undefined;
}

/** Why an optional header or cookie parameter is not in a tool's input. */
function leftOutReason(where: 'header' | 'cookie'): string {
  return (
    "the model never sets headers or cookies, so it is not in the tool's input; send it with 'headers' if the " +
    `API needs it${where === 'cookie' ? " (in a 'cookie' header)" : ''}.`
  );
}

function toolOf(
  operation: Operation,
  input: OperationInput,
  name: string,
  settings: CallSettings,
  o: OpenApiToolsOptions,
) {
  const read = READ_METHODS.has(operation.method);
  const key = keyOf(operation);
  const policy = read ? undefined : o.writePolicy;
  return defineTool({
    name,
    description: descriptionOf(operation),
    input: input.schema,
    untrusted: overrideOf(o.untrusted, key) ?? read,
    privileged: overrideOf(o.privileged, key) ?? !read,
    ...(policy === undefined ? {} : { policy }),
    remote: true,
    renameUnsafeProperties: true,
    annotations: {
      readOnly: read,
      destructive: operation.method === 'delete',
      idempotent: read || operation.method === 'put' || operation.method === 'delete',
      openWorld: true,
    },
    ...(o.maxResultLength === undefined ? {} : { maxResultLength: o.maxResultLength }),
    run: (args, context) => callOperation(operation, input, settings, args as Record<string, unknown>, context),
  });
}

function descriptionOf(operation: Operation): string {
  const parts = [operation.operation.summary, operation.operation.description]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim());
  return [...new Set(parts), `(${operation.label})`].join('\n\n');
}

/** The flag given for an operation, if one was: own keys only, so an operationId such as `constructor` has none. */
function overrideOf(overrides: Readonly<Record<string, boolean>> | undefined, key: string): boolean | undefined {
  return overrides !== undefined && Object.hasOwn(overrides, key) ? overrides[key] : undefined;
}
