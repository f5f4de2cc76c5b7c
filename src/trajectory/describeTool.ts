import { copyValue } from '../json/copyValue.js';
import type { RequestTool, ServerToolDefinition, ToolDefinition } from '../messages/types.js';
import { toolDigest } from './toolDigest.js';
import type { RecordedTool } from './types.js';

/** What the header records of a tool besides its definition: its safety posture (a defined tool has it all). */
export interface ToolPosture {
  readonly untrusted: boolean;
  readonly privileged: boolean;
  readonly policy: string | undefined;
  readonly compensatedBy: string | undefined;
  /** 0 for no cap. */
  readonly maxResultLength: number;
  readonly annotations: {
    readonly title?: string;
    readonly readOnly: boolean;
    readonly destructive: boolean;
    readonly idempotent: boolean;
    readonly openWorld: boolean;
  };
  /** The tool declared annotations; otherwise `annotations` holds MCP's defaults and is not recorded. */
  readonly annotated: boolean;
  /** Argument paths a tainted run must trace to trusted text. */
  readonly sensitive?: readonly string[] | undefined;
  /** Output field paths outsiders write. */
  readonly outsideAuthored?: readonly string[] | undefined;
  /** Its policy in a tainted run, resolved against its agent's where the runtime describes it. */
  readonly onTaint?: 'block' | 'approve' | undefined;
  /** Each top-level argument name the model was shown that the tool receives under another name, with that name. */
  readonly wireNames?: Readonly<Record<string, string>> | undefined;
}

/**
 * A tool as a trajectory's header records it: what the model was shown (its definition: name,
 * description, input schema, and their digest) and the posture of the tool behind it, where
 * there is one. The one description of a tool: a recording writes it, and a replay describes
 * today's tools with it to compare them with the recorded ones.
 */
export function describeTool(requested: Readonly<RequestTool>, tool: ToolPosture | undefined): RecordedTool {
  if (!('input_schema' in requested)) return describeServerTool(requested as ServerToolDefinition, tool);
  const definition = requested as Readonly<ToolDefinition>;
  const described: RecordedTool = { name: definition.name, digest: toolDigest(definition) };
  if (tool?.untrusted) described.untrusted = true;
  if (tool?.privileged) described.privileged = true;
  if (tool?.policy !== undefined) described.policy = tool.policy;
  if (tool?.compensatedBy !== undefined) described.compensatedBy = tool.compensatedBy;
  if (tool !== undefined && tool.maxResultLength > 0) described.maxResultLength = tool.maxResultLength;
  if (tool?.sensitive !== undefined) described.sensitive = [...tool.sensitive];
  if (tool?.outsideAuthored !== undefined) described.outsideAuthored = [...tool.outsideAuthored];
  if (tool?.privileged && tool.onTaint === 'approve') described.onTaint = 'approve';
  if (tool?.annotated) {
    const { title, readOnly, destructive, idempotent, openWorld } = tool.annotations;
    described.annotations = { ...(title === undefined ? {} : { title }), readOnly, destructive, idempotent, openWorld };
  }
  if (definition.description !== undefined) described.description = definition.description;
  described.inputSchema = copyValue(definition.input_schema);
  if (tool?.wireNames !== undefined) described.wireNames = { ...tool.wireNames };
  return described;
}

/**
 * A server tool (the API runs it) as the header records it: name, type, whether its results
 * taint, and the digest of its definition; the rest of the definition is the API's.
 */
function describeServerTool(
  definition: Readonly<ServerToolDefinition>,
  tool: Pick<ToolPosture, 'untrusted'> | undefined,
): RecordedTool {
  const described: RecordedTool = { name: definition.name, type: definition.type, digest: toolDigest(definition) };
  if (tool?.untrusted) described.untrusted = true;
  return described;
}

/**
 * The tools a request offered, each described with the tool behind its definition: the very
 * tool whose definition it is, else the first of its name, else none (a definition alone).
 */
export function describeTools(
  definitions: readonly Readonly<RequestTool>[],
  tools: readonly DescribedTool[],
): RecordedTool[] {
  return definitions.map((definition) => {
    // A server tool is known by its name alone: a prefix cache breakpoint is set on a copy of its definition.
    const server = !('input_schema' in definition);
    const candidates = tools.filter((tool) => ('kind' in tool && tool.kind === 'server') === server);
    const tool =
      candidates.find((t) => t.definition() === definition) ?? candidates.find((t) => t.name === definition.name);
    return describeTool(definition, tool as ToolPosture | undefined);
  });
}

/** A tool behind a request's definition: a defined tool (its whole posture), or a server tool (whether it taints). */
export type DescribedTool =
  | (ToolPosture & { definition(): unknown; readonly name: string })
  | { readonly kind: 'server'; readonly untrusted: boolean; definition(): unknown; readonly name: string };
