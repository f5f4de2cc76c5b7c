import type { ComparedFile, ComparisonSummary } from '../trajectory/comparisonSummary.js';
import { COMPARISON_COLUMNS, comparisonCells, comparisonDetails, summaryLine } from '../trajectory/comparisonWords.js';
import { attribute, escapeHtml } from './escapeHtml.js';
import { pageHtml } from './pageHtml.js';

/**
 * Two corpora compared (`legate compare --html`), as one self-contained page: the summary, then a table with a row
 * per file (`<tr data-file data-status>`, `data-gated` where a decision or a stop reason changed, or the file is in
 * one corpus only), the columns `legate compare` prints, and under each changed file what changed, line by line.
 * `passed` is a column only when a file holds several samples.
 */
export function compareHtml(
  sides: { before: string; after: string },
  files: readonly ComparedFile[],
  summary: ComparisonSummary,
): string {
  const withSamples = files.some(
    (row) => 'comparison' in row && (row.comparison.samples.before.total > 1 || row.comparison.samples.after.total > 1),
  );
  const columns = COMPARISON_COLUMNS.filter((column) => column !== 'passed' || withSamples);
  const head = `<thead><tr>${columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead>`;
  const rows = files.map((row) => {
    const cells = comparisonCells(row);
    const gated = 'comparison' in row ? row.comparison.gated : true;
    const details = 'comparison' in row ? comparisonDetails(row.comparison) : [];
    const tds = columns.map((column) =>
      column === 'file'
        ? `<th scope="row">${escapeHtml(cells.file)}${changesHtml(details)}</th>`
        : `<td${attribute('data-column', column)}>${escapeHtml(cells[column])}</td>`,
    );
    return (
      `<tr${attribute('data-file', row.file)}${attribute('data-status', row.status)}` +
      `${gated ? ' data-gated="true"' : ''} class="${row.status}${gated ? ' gated' : ''}">${tds.join('')}</tr>`
    );
  });
  const verdict = summary.gated
    ? '<p class="verdict gated">A decision or a stop reason changed, or a file is in one corpus only: exit 1.</p>'
    : '<p class="verdict">No decision and no stop reason changed: exit 0.</p>';
  const main =
    `<p class="tally">${escapeHtml(summaryLine(summary))}</p>${verdict}` +
    `<div class="table-wrap"><table class="comparison"><caption>${escapeHtml(sides.before)} (old) and ` +
    `${escapeHtml(sides.after)} (new)</caption>${head}<tbody>${rows.join('')}</tbody></table></div>`;
  return pageHtml(`${sides.before} compared with ${sides.after}`, '', main);
}

function changesHtml(details: readonly string[]): string {
  if (details.length === 0) return '';
  return `<ul class="changes">${details.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
}
