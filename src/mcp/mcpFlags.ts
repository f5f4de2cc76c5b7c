import type { ToolAnnotations } from '../tools/annotations.js';
import type { McpToolDefinition } from './mcpToolDefinition.js';

/** Safety flags set by hand for one MCP tool, over what its annotations imply. */
export interface McpToolFlags {
  untrusted?: boolean;
  privileged?: boolean;
}

/**
 * A tool's safety flags from its MCP annotations, with MCP's defaults for hints left out:
 * - untrusted unless `openWorldHint: false` (MCP's default is true: it reads the outside world);
 * - privileged unless `readOnlyHint: true` (default false), and always when `destructiveHint: true`.
 * A flag set in `overrides` wins. Hints are a server's claims; the defaults read an absent hint
 * the cautious way.
 */
export function flagsOf(definition: McpToolDefinition, overrides: McpToolFlags = {}): Required<McpToolFlags> {
  const hints = definition.annotations ?? {};
  return {
    untrusted: overrides.untrusted ?? hints.openWorldHint !== false,
    privileged: overrides.privileged ?? (hints.readOnlyHint !== true || hints.destructiveHint === true),
  };
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
