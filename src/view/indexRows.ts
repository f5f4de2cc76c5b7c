import { attribute, escapeHtml } from './escapeHtml.js';
import type { ViewEntry } from './verdict.js';
import type { TrajectoryModel } from './trajectoryModel.js';

/** One file of the page, as the index and its section read it. */
export interface IndexedEntry {
  entry: ViewEntry;
  model: TrajectoryModel | undefined;
  /** The id of its section. */
  anchor: string;
}

const COLUMNS = ['File', 'Verdict', 'Agent', 'Model', 'Stop reason', 'Tool calls', 'Blocked', 'Taint', 'Usage'];

/**
 * Rows per table of the index. A browser lays out a table whole, and 20,000 rows took Chromium seconds and a gigabyte;
 * the index is a table per this many rows instead, each laid out only when it comes near the screen
 * (`content-visibility: auto`), its own header repeated.
 */
export const INDEX_PART_ROWS = 500;

/**
 * The index, piece by piece: `<div id="index">` holding one table per {@link INDEX_PART_ROWS} rows, each row a
 * `<tr data-file data-verdict>` linking to its file's section.
 */
export function* indexHtml(rows: readonly string[]): Generator<string> {
  const head = `<thead><tr>${COLUMNS.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>`;
  yield '<div id="index">';
  for (let first = 0; first < rows.length || first === 0; first += INDEX_PART_ROWS) {
    const part = rows.slice(first, first + INDEX_PART_ROWS);
    const caption =
      rows.length <= INDEX_PART_ROWS
        ? 'Trajectories'
        : `Trajectories ${count(first + 1)}–${count(first + part.length)} of ${count(rows.length)}`;
    // Until it is laid out, a part takes the height of its rows at about two lines each.
    yield `<div class="table-wrap index-part" style="contain-intrinsic-block-size: auto ${part.length * 2}rem">` +
      `<table><caption>${caption}</caption>${head}<tbody>`;
    yield* part;
    yield '</tbody></table></div>';
  }
  yield '</div>';
}

/** How many runs of each verdict the page holds, in words: `3 trajectories: 1 diverged, 2 passed`. */
export function tallyHtml(statuses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  const each = [...counts].map(([status, n]) => `${count(n)} ${status}`).join(', ');
  const total = `${count(statuses.length)} trajector${statuses.length === 1 ? 'y' : 'ies'}`;
  return `<p class="tally">${statuses.length === 0 ? total : `${total}: ${each}`}</p>`;
}

/** The verdicts the index lists first: the files that did not pass. */
export const FAILED: ReadonlySet<string> = new Set(['diverged', 'error', 'missing']);

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * A file's row of the index. Joined from its parts, so that it is one flat string: a page keeps every row until it is
 * written, and a row built by `+` is a tree of its pieces, twice the memory.
 */
export function indexRow({ entry, model, anchor }: IndexedEntry): string {
  const verdict = verdictText(entry);
  const cells =
    model === undefined
      ? [`<td colspan="7">${escapeHtml(entry.verdict?.message ?? 'The file could not be read.')}</td>`]
      : [
          model.agent,
          model.model,
          model.stopReason,
          String(model.toolCalls),
          String(model.blocked),
          model.tainted ? `tainted by ${model.taintSource ?? 'an untrusted tool'}` : 'clean',
          model.usage,
        ].map((text) => `<td>${escapeHtml(text)}</td>`);
  return [
    `<tr${attribute('data-file', entry.file)}${attribute('data-verdict', verdict.status)}>`,
    `<th scope="row"><a href="#${anchor}">${escapeHtml(entry.file)}</a></th>`,
    `<td><span class="badge badge-verdict-${verdict.status}">${escapeHtml(verdict.text)}</span></td>`,
    ...cells,
    '</tr>',
  ].join('');
}

/** A file's verdict in words: a replay's, or `recorded` when the page was made without replaying. */
export function verdictText(entry: ViewEntry): { status: string; text: string } {
  const { verdict } = entry;
  if (verdict === undefined)
    return entry.trajectory === undefined
      ? { status: 'missing', text: 'missing' }
      : { status: 'recorded', text: 'recorded' };
  const samples = verdict.samples === undefined ? '' : ` · ${verdict.samples.passed}/${verdict.samples.total} samples`;
  if (verdict.status === 'diverged' && verdict.divergence !== undefined)
    return { status: 'diverged', text: `diverged · turn ${verdict.divergence.turn}${samples}` };
  return { status: verdict.status, text: `${verdict.status}${samples}` };
}
