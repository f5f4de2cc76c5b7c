/** The MCP hints a tool's posture is read from: a server's claims, or an audit's declarations of them. */
interface PostureHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

/** Flags set by hand over what the hints imply (mcpTools' `flags`, an audit's `trusted` and lists). */
interface PostureMarks {
  untrusted?: boolean;
  privileged?: boolean;
}

/** What decided one flag: a hand-set flag, the hint named, or the rule's default. */
export type PostureCause = 'flag' | 'default' | 'readOnlyHint' | 'destructiveHint';

/** A tool's flags from its MCP hints, and what decided each. */
export interface HintedPosture {
  untrusted: boolean;
  privileged: boolean;
  decidedBy: { untrusted: PostureCause; privileged: PostureCause };
}

/**
 * The one rule that turns MCP hints into legate's flags, used by legate/mcp and the audit alike:
 * - **untrusted**, whatever the hints say, unless a flag marks it trusted. A tool returns content
 *   (a file, a memory graph, a ticket, a diff), and `openWorldHint: false` says where the tool
 *   reaches, not who wrote what it reads: others, or the agent itself under an earlier injection.
 * - **privileged** unless `readOnlyHint: true`, and always when `destructiveHint: true` (MCP's
 *   default for an absent `readOnlyHint` is false: it may write).
 * A flag set in `marks` wins over the hints.
 */
export function postureOf(hints: PostureHints = {}, marks: PostureMarks = {}): HintedPosture {
  const untrusted = marks.untrusted ?? true;
  const privileged = marks.privileged ?? (hints.destructiveHint === true || hints.readOnlyHint !== true);
  const privilegedBy: PostureCause =
    marks.privileged !== undefined
      ? 'flag'
      : hints.destructiveHint === true
        ? 'destructiveHint'
        : hints.readOnlyHint === undefined
          ? 'default'
          : 'readOnlyHint';
  return {
    untrusted,
    privileged,
    decidedBy: { untrusted: marks.untrusted === undefined ? 'default' : 'flag', privileged: privilegedBy },
  };
}
