import { byTag, NOT_SELECTED, type SkippedOperation, type SummaryRow } from './operationRows.js';

/** Columns the list of tags not selected is wrapped at. */
const WIDTH = 100;
/** The widest the name and operation columns are padded to: a longer one pushes only its own row's flags. */
const NAME_COLUMN = 40;
const OPERATION_COLUMN = 60;

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
