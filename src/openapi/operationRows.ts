/**
 * The operations of a document as the summary (`toText`) and the refusal of too many tools list them: each
 * operation's row, the operations and parameters skipped, and the rows grouped by tag.
 */

/**
 * An operation of the document that is not a tool, and why; or, with `parameter`, a parameter of a tool's
 * operation that is not in the tool's input (an optional header or cookie parameter), and why.
 */
export interface SkippedOperation {
  /** `GET /pets/{petId}`. */
  readonly operation: string;
  readonly operationId?: string;
  /** The parameter left out, when the operation is a tool and only this parameter is not in its input. */
  readonly parameter?: { readonly name: string; readonly in: 'header' | 'cookie' };
  readonly reason: string;
}

/** One tool of the set, as the summary (`OpenApiTools.toText`) lists it. */
export interface OpenApiToolInfo {
  readonly name: string;
  readonly operation: string;
  readonly untrusted: boolean;
  readonly privileged: boolean;
  readonly policy: string | undefined;
}

/** How the reason of an operation left out by `tags` or `operationIds` starts. */
export const NOT_SELECTED = 'not selected';

/** One operation of the document as the summary lists it. */
export interface SummaryRow {
  /** `GET /pets/{petId}`. */
  readonly operation: string;
  readonly tags: readonly string[];
  /** Left in by `tags` and `operationIds` (every operation, when neither is given). */
  readonly selected: boolean;
  /** The tool made of it; undefined when it was skipped or not selected. */
  readonly tool: OpenApiToolInfo | undefined;
}

/** The group of the operations that have no tag, in a document where others have. */
const NO_TAG = '(no tag)';

/**
 * The operations by tag, in the order their tags are first met in `rows`, those without a tag last. An
 * operation of several tags is in the group of each, so a group is what selecting its tag selects.
 */
export function byTag(rows: readonly SummaryRow[]): [string, SummaryRow[]][] {
  const groups = new Map<string, SummaryRow[]>();
  for (const row of rows) for (const tag of row.tags) groups.set(tag, [...(groups.get(tag) ?? []), row]);
  const untagged = rows.filter((row) => row.tags.length === 0);
  return [...groups, ...(untagged.length > 0 ? [[NO_TAG, untagged] as [string, SummaryRow[]]] : [])];
}
