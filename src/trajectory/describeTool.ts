import { copyValue } from '../json/copyValue.js';
import type { RequestTool, ServerToolDefinition, ToolDefinition } from '../messages/types.js';
import { toolDigest } from './toolDigest.js';
import type { RecordedTool } from './types.js';
import {
  RECORDED_POSTURE,
  type RecordedPostureField,
  type ToolPosture,
  writtenPosture,
} from '../tools/postureFields.js';

/**
 * A tool as a trajectory's header records it: what the model was shown (its definition: name,
 * description, input schema, and their digest) and the posture of the tool behind it, where
 * there is one. The one description of a tool: a recording writes it, and a replay describes
 * today's tools with it to compare them with the recorded ones.
 */
export function describeTool(
  requested: Readonly<RequestTool>,
  tool: ToolPosture | undefined,
  options: DescribeOptions = {},
): RecordedTool {
  if (!('input_schema' in requested)) return describeServerTool(requested as ServerToolDefinition, tool);
  const definition = requested as Readonly<ToolDefinition>;
  const described: RecordedTool = { name: definition.name, digest: toolDigest(definition) };
  writePosture(described, tool, (field) => field.header === 'posture');
  if (definition.description !== undefined) described.description = definition.description;
  described.inputSchema = options.shareSchema === true ? definition.input_schema : copyValue(definition.input_schema);
  writePosture(described, tool, (field) => field.header === 'afterSchema');
  return described;
}

/** How a description is made. */
interface DescribeOptions {
  /**
   * Hold the definition's own input schema instead of a copy: for a description compared and dropped (a replay's
   * look at today's tools), never for one that is kept (a file's header, which must not change with the tool).
   */
  shareSchema?: boolean;
}

/**
 * A server tool (the API runs it) as the header records it: name, type, whether its results
 * taint, and the digest of its definition; the rest of the definition is the API's.
 */
function describeServerTool(definition: Readonly<ServerToolDefinition>, tool: ToolPosture | undefined): RecordedTool {
  const described: RecordedTool = { name: definition.name, type: definition.type, digest: toolDigest(definition) };
  writePosture(described, tool, (field) => 'serverTool' in field);
  return described;
}

/** The posture fields `takes` of a tool, each where its value is not the default and the field applies. */
function writePosture(
  described: RecordedTool,
  tool: ToolPosture | undefined,
  takes: (field: RecordedPostureField) => boolean,
): void {
  if (tool === undefined) return;
  for (const field of RECORDED_POSTURE) {
    if (!takes(field)) continue;
    const value = writtenPosture(field, tool);
    if (value !== undefined) (described as Record<string, unknown>)[field.name] = value;
  }
}

/**
 * The tools a request offered, each described with the tool behind its definition: the very
 * tool whose definition it is, else the first of its name, else none (a definition alone).
 */
export function describeTools(
  definitions: readonly Readonly<RequestTool>[],
  tools: readonly DescribedTool[],
  options: DescribeOptions = {},
): RecordedTool[] {
  return definitions.map((definition) => {
    // A server tool is known by its name alone: a prefix cache breakpoint is set on a copy of its definition.
    const server = !('input_schema' in definition);
    const candidates = tools.filter((tool) => ('kind' in tool && tool.kind === 'server') === server);
    const tool =
      candidates.find((t) => t.definition() === definition) ?? candidates.find((t) => t.name === definition.name);
    return describeTool(definition, tool as ToolPosture | undefined, options);
  });
}

/** A tool behind a request's definition: a defined tool (its whole posture), or a server tool (whether it taints). */
type DescribedTool =
  | (ToolPosture & { definition(): unknown; readonly name: string })
  | { readonly kind: 'server'; readonly untrusted: boolean; definition(): unknown; readonly name: string };
