import { PageRuns } from './pageRuns.js';
import type { ViewEntry } from './verdict.js';

/**
 * The whole page for some trajectory files, as one string: an index (one row per file, filterable, those that did
 * not pass first) and a section per file with its timeline. One self-contained HTML document: no external URL, style
 * and script inline, every string from a file escaped. For many files, {@link ViewPage} writes the same page to a
 * file without holding it.
 */
export function viewHtml(entries: readonly ViewEntry[], options: { title?: string } = {}): string {
  const runs = new PageRuns<string>(options.title, (body) => body);
  for (const entry of entries) runs.add(entry);
  return [...runs.chunks((body) => body)].join('');
}
