import type { OpenApiToolInfo, SkippedOperation } from './openApiTools.js';

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
/** Columns the list of tags not selected is wrapped at. */
const WIDTH = 100;
/** The widest the name and operation columns are padded to: a longer one pushes only its own row's flags. */
const NAME_COLUMN = 40;
const OPERATION_COLUMN = 60;

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

/**
 * The summary `toText()` returns and `legate openapi` prints: a headline of counts; every operation
 * selected, grouped by tag when the document tags its operations, each as its tool (name, operation,
 * flags) or as skipped; each operation and parameter skipped with its reason; and the tags of the
 * operations not selected, with how many each has.
 */
export function toText(title: string, rows: readonly SummaryRow[], skipped: readonly SkippedOperation[]): string {
  const selected = rows.filter((row) => row.selected);
  const problems = skipped.filter((s) => s.parameter === undefined && !s.reason.startsWith(NOT_SELECTED));
  const parameters = skipped.filter((s) => s.parameter !== undefined);
  const unselected = rows.filter((row) => !row.selected);
  const counts = [
    count(selected.filter((row) => row.tool !== undefined).length, 'tool'),
    `${count(problems.length, 'operation')} skipped`,
    ...(parameters.length > 0 ? [`${count(parameters.length, 'parameter')} left out`] : []),
    ...(unselected.length > 0 ? [`${count(unselected.length, 'operation')} not selected`] : []),
  ];
  const lines = [`${title}: ${counts.join(', ')}`];
  if (selected.length > 0) {
    const nameWidth = Math.min(NAME_COLUMN, Math.max(...selected.map((row) => (row.tool?.name ?? '-').length)));
    const opWidth = Math.min(OPERATION_COLUMN, Math.max(...selected.map((row) => row.operation.length)));
    const line = (row: SummaryRow) =>
      `  ${(row.tool?.name ?? '-').padEnd(nameWidth)}  ${row.operation.padEnd(opWidth)}  ${flags(row)}`.trimEnd();
    lines.push('');
    if (selected.every((row) => row.tags.length === 0)) lines.push('Operations:', ...selected.map(line));
    else
      for (const [tag, group] of byTag(selected)) {
        const skips = group.filter((row) => row.tool === undefined).length;
        lines.push(`${tag}: ${count(group.length, 'operation')}${skips > 0 ? `, ${skips} skipped` : ''}`);
        lines.push(...group.map(line));
      }
  }
  if (problems.length + parameters.length > 0) {
    lines.push('', 'Skipped:');
    for (const s of [...problems, ...parameters]) {
      const parameter = s.parameter === undefined ? '' : `, ${s.parameter.in} parameter '${s.parameter.name}'`;
      lines.push(
        `  ${s.operation}${s.operationId === undefined ? '' : ` (${s.operationId})`}${parameter}: ${s.reason}`,
      );
    }
  }
  if (unselected.some((row) => row.tags.length > 0))
    lines.push(
      '',
      ...wrapped(
        'Not selected, by tag: ',
        byTag(unselected).map(([tag, group]) => `${tag} (${group.length})`),
      ),
    );
  return lines.join('\n');
}

function flags(row: SummaryRow): string {
  const tool = row.tool;
  if (tool === undefined) return 'skipped';
  return [
    ...(tool.untrusted ? ['untrusted'] : []),
    ...(tool.privileged ? ['privileged'] : []),
    ...(tool.policy === undefined ? [] : [`policy ${tool.policy}`]),
  ].join(', ');
}

/** `first` and the items joined by `, `, in lines of at most {@link WIDTH} columns (an item is never cut). */
function wrapped(first: string, items: readonly string[]): string[] {
  const lines = [first.trimEnd()];
  for (const [i, item] of items.entries()) {
    const text = i < items.length - 1 ? `${item},` : item;
    const last = lines[lines.length - 1]!;
    if (i === 0 || last.length + 1 + text.length <= WIDTH) lines[lines.length - 1] = `${last} ${text}`;
    else lines.push(`  ${text}`);
  }
  return lines;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
