import type { ToolAnnotations } from '../tools/annotations.js';
import { postureOf, type HintedPosture } from '../tools/hintedPosture.js';
import type { McpToolDefinition } from './mcpToolDefinition.js';

/** Safety flags set by hand for one MCP tool, over what its annotations imply. */
export interface McpToolFlags {
  untrusted?: boolean;
  privileged?: boolean;
}

/** The flags an MCP tool gets, and what decided each: a hand-set flag, a hint, or the rule's default. */
export type McpToolPosture = HintedPosture;

/**
 * An MCP tool's safety flags by legate's one rule ({@link postureOf}), with what decided each: untrusted
 * whatever its hints say (`openWorldHint: false` included: a file, a memory graph, a ticket is content
 * others wrote), privileged unless `readOnlyHint: true`, and always when `destructiveHint: true`. A flag
 * set in `flags` wins: `{ untrusted: false }` is how a caller marks a tool's results trusted.
 */
export function mcpToolPosture(definition: McpToolDefinition, flags: McpToolFlags = {}): McpToolPosture {
  return postureOf(definition.annotations, flags);
}

/** The flags alone, as mcpTools gives them to each tool. */
export function flagsOf(definition: McpToolDefinition, overrides: McpToolFlags = {}): Required<McpToolFlags> {
  const { untrusted, privileged } = mcpToolPosture(definition, overrides);
  return { untrusted, privileged };
}

/** The MCP hints under legate's annotation names; the tool's `title` when the annotations have none. */
export function annotationsOf(definition: McpToolDefinition): ToolAnnotations {
  const hints = definition.annotations ?? {};
  const annotations: ToolAnnotations = {};
  const title = hints.title ?? definition.title;
  if (title !== undefined) annotations.title = title;
  if (hints.readOnlyHint !== undefined) annotations.readOnly = hints.readOnlyHint;
  if (hints.destructiveHint !== undefined) annotations.destructive = hints.destructiveHint;
  if (hints.idempotentHint !== undefined) annotations.idempotent = hints.idempotentHint;
  if (hints.openWorldHint !== undefined) annotations.openWorld = hints.openWorldHint;
  return annotations;
}
