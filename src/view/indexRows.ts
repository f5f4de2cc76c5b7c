import { attribute, escapeHtml } from './escapeHtml.js';
import type { ViewEntry } from './verdict.js';
import type { TrajectoryModel } from './viewModel.js';

/** One file of the page, as the index and its section read it. */
export interface IndexedEntry {
  entry: ViewEntry;
  model: TrajectoryModel | undefined;
  /** The id of its section. */
  anchor: string;
}

const COLUMNS = ['File', 'Verdict', 'Agent', 'Model', 'Stop reason', 'Tool calls', 'Blocked', 'Taint', 'Usage'];

/** The index: a table with one `<tr data-file>` per file, each linking to its section. */
export function indexTable(entries: readonly IndexedEntry[]): string {
  const head = `<thead><tr>${COLUMNS.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>`;
  return (
    '<table id="index"><caption>Trajectories</caption>' +
    head +
    `<tbody>${entries.map(indexRow).join('')}</tbody></table>`
  );
}

function indexRow({ entry, model, anchor }: IndexedEntry): string {
  const verdict = verdictText(entry);
  const cells =
    model === undefined
      ? `<td colspan="7">${escapeHtml(entry.verdict?.message ?? 'The file could not be read.')}</td>`
      : [
          model.agent,
          model.model,
          model.stopReason,
          String(model.toolCalls),
          String(model.blocked),
          model.tainted ? `tainted by ${model.taintSource ?? 'an untrusted tool'}` : 'clean',
          model.usage,
        ]
          .map((text) => `<td>${escapeHtml(text)}</td>`)
          .join('');
  return (
    `<tr${attribute('data-file', entry.file)}${attribute('data-verdict', verdict.status)}>` +
    `<th scope="row"><a href="#${anchor}">${escapeHtml(entry.file)}</a></th>` +
    `<td><span class="badge badge-verdict-${verdict.status}">${escapeHtml(verdict.text)}</span></td>${cells}</tr>`
  );
}

/** A file's verdict in words: a replay's, or `recorded` when the page was made without replaying. */
export function verdictText(entry: ViewEntry): { status: string; text: string } {
  const { verdict } = entry;
  if (verdict === undefined)
    return entry.trajectory === undefined
      ? { status: 'missing', text: 'missing' }
      : { status: 'recorded', text: 'recorded' };
  if (verdict.status === 'diverged' && verdict.divergence !== undefined)
    return { status: 'diverged', text: `diverged · turn ${verdict.divergence.turn}` };
  return { status: verdict.status, text: verdict.status };
}
