import { Anchors } from './anchors.js';
import type { DivergenceMark } from './divergenceHtml.js';
import { indexTable, type IndexedEntry } from './indexRows.js';
import { pageHtml } from './pageHtml.js';
import { sectionHtml } from './sectionHtml.js';
import type { ViewEntry } from './verdict.js';
import { viewModel } from './viewModel.js';

/**
 * The whole page for some trajectory files: an index (one row per file, filterable) and a section per
 * file with its timeline. One self-contained HTML document: no external URL, style and script inline,
 * every string from a file escaped.
 */
export function viewHtml(entries: readonly ViewEntry[], options: { title?: string } = {}): string {
  const anchors = new Anchors();
  const indexed: IndexedEntry[] = entries.map((entry) => ({
    entry,
    model: entry.trajectory === undefined ? undefined : viewModel(entry.trajectory),
    anchor: anchors.unique(`trajectory-${sectionName(entry.file)}`),
  }));
  const title = options.title ?? defaultTitle(entries);
  const nav =
    '<nav aria-label="Trajectories">' +
    '<label for="filter">Filter trajectories</label>' +
    '<input type="search" id="filter" aria-label="Filter trajectories" placeholder="file, agent, outcome…">' +
    '<span id="filter-status" role="status" aria-live="polite"></span>' +
    '<span id="tools"></span>' +
    '</nav>';
  const index = `<div class="table-wrap">${indexTable(indexed)}</div>`;
  const sections = indexed.map((item) => sectionHtml(item, anchors, divergenceMark(item.entry)));
  const empty = entries.length === 0 ? '<p class="note">No trajectories were given.</p>' : '';
  return pageHtml(title, nav, index + empty + sections.join(''));
}

function divergenceMark(entry: ViewEntry): DivergenceMark | undefined {
  return entry.verdict?.status === 'diverged' ? entry.verdict.divergence : undefined;
}

function defaultTitle(entries: readonly ViewEntry[]): string {
  if (entries.length === 1) return `Trajectory ${entries[0]!.file}`;
  return `${entries.length} trajectories`;
}

/** A file name as the tail of an element id: its last path segment without `.yaml`, in safe characters. */
function sectionName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.ya?ml$/i, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'file';
}
