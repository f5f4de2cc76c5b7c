import { shown } from './callHtml.js';
import { attribute, escapeHtml } from './escapeHtml.js';
import { prettyJson } from './prettyJson.js';

/** Where a run left its recording (or where two files first differ), and what each side held there. */
export interface DivergenceMark {
  /** The 1-based turn; 0 where the difference is outside the turns (a file's header or summary). */
  turn: number;
  path: string;
  expected: unknown;
  actual: unknown;
  message: string;
  kind?: string;
  /** What the two sides are called: `expected`/`actual` for a replay, the two files for a diff. */
  labels?: [string, string];
}

/**
 * A `<div class="divergence">` placed at its turn: the turn and JSON path in words, then expected and actual
 * side by side (`<pre class="expected">`, `<pre class="actual">`), then the message in full.
 */
export function divergenceHtml(mark: DivergenceMark): string {
  const [left, right] = mark.labels ?? ['expected (the recording)', 'actual (this run)'];
  const where = mark.turn > 0 ? `turn ${mark.turn}` : 'outside the turns';
  const path = mark.path === '' ? '' : ` at <code>${escapeHtml(mark.path)}</code>`;
  const kind = mark.kind === undefined ? '' : ` (${escapeHtml(mark.kind)})`;
  const side = (label: string, name: string, value: unknown) =>
    `<div class="side"><p class="label">${escapeHtml(label)}</p>` +
    `<pre class="${name}">${shown(prettyJson(value))}</pre></div>`;
  return (
    '<div class="divergence" role="group" aria-label="Divergence"' +
    `${attribute('data-turn', mark.turn)}${attribute('data-path', mark.path)}${attribute('data-kind', mark.kind)}>` +
    `<p class="divergence-title"><strong>Diverged</strong> in ${where}${path}${kind}</p>` +
    `<div class="sides">${side(left, 'expected', mark.expected)}${side(right, 'actual', mark.actual)}</div>` +
    (mark.message === ''
      ? ''
      : '<details class="divergence-message"><summary>The whole message</summary>' +
        `<pre>${shown(mark.message)}</pre></details>`) +
    '</div>'
  );
}
