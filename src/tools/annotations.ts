/** What a tool declares about its effects, for policies and for MCP clients. */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** It only reads. Default false. */
  readOnly?: boolean;
  /** It may destroy or overwrite data. Default: true unless readOnly (the MCP default). */
  destructive?: boolean;
  /** Calling it twice with the same input has the effect of calling it once. Default: follows readOnly. */
  idempotent?: boolean;
  /** It reaches beyond a closed domain (the web, other people's data). Default true (the MCP default). */
  openWorld?: boolean;
}

/** Annotations with every default filled in. */
export interface ResolvedAnnotations {
  title?: string;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/** The same facts under the Model Context Protocol's annotation names. */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export function resolveAnnotations(declared: ToolAnnotations = {}): ResolvedAnnotations {
  const readOnly = declared.readOnly ?? false;
  const resolved: ResolvedAnnotations = {
    readOnly,
    // A read cannot destroy; anything else is assumed to, unless it says otherwise.
    destructive: readOnly ? false : (declared.destructive ?? true),
    // A read is idempotent; a write must say so.
    idempotent: declared.idempotent ?? readOnly,
    openWorld: declared.openWorld ?? true,
  };
  if (declared.title !== undefined) resolved.title = declared.title;
  return resolved;
}

export function toMcpAnnotations(annotations: ResolvedAnnotations): McpToolAnnotations {
  const hints: McpToolAnnotations = {
    readOnlyHint: annotations.readOnly,
    destructiveHint: annotations.destructive,
    idempotentHint: annotations.idempotent,
    openWorldHint: annotations.openWorld,
  };
  if (annotations.title !== undefined) hints.title = annotations.title;
  return hints;
}
